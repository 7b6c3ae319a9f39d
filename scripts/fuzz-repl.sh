#!/usr/bin/env bash
# Feeds demo-cli's repl random lines and counts traps and hangs.
#
#   scripts/fuzz-repl.sh [LINES] [SEED]      (defaults: 10000 lines per mode, seed 1)
#
# Three modes, LINES lines each, in sessions of 200 lines (every session a new process):
#   memory  the in-memory system, no state file
#   state   the in-memory system with --state (each session reopens the file the last saved)
#   git     a Git remote (a fresh bare repository) with --state
# With a state file, every 10th session starts over (new file, new remote), so the story stays
# the size a person makes it (hundreds of proposals make every listing slow, not wrong).
# Lines are commands with random, broken and hostile arguments (wrong arity, bad dates, huge
# numbers, quotes left open, control characters, 4 KB words), half of them sensible enough to
# move the story on (sign in, edit, propose, merge, refresh).
#
# A trap is a session that ended by a signal or with a status other than 0 or 1, or that wrote
# "Fatal error" to standard error; a hang is a session that ran longer than 120 s; a leak is a
# private temporary folder (demo-cli-run-*) a finished session left behind. Failing
# sessions' inputs are kept in the work folder for replay. Exit status 0 when there were none.
# Needs a built demo-cli (swift build); uses coreutils `timeout`.
set -uo pipefail
cd "$(dirname "$0")/.."

lines_per_mode=${1:-10000}
seed=${2:-1}
session_lines=200
binary=${DEMO_CLI:-.build/debug/demo-cli}
[ -x "$binary" ] || { echo "fuzz: no $binary; run swift build first" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/demo-cli-fuzz-XXXXXX")
RANDOM=$seed

pick() { local -n list=$1; printf '%s' "${list[RANDOM % ${#list[@]}]}"; }

# (quit and exit end a session early, so they come only with an argument, which is refused.)
commands=(signin signout enter leave status list ls add rename reschedule remove rm diff propose
  retry fresh proposals merge refresh branches select help '?' SIGNIN sigin frobnicate)
ids=(e1 e2 e3 e4 e5 f1 f2 e10 "" "-x" "--" "../x" "e 1" "é" "🎉")
words=(Talk "Poetry Evening" "Old Bookshop" lovelace hopper torvalds ada grace linus P1 P2 P3
  r1 r2 r9 published festival nope "--date" "--venue" "--help" "-h" "--date=2027-02-30" "#x"
  '"' "'" '\' '"open' "close'" '""' 'a\ b' "--venue=" "9223372036854775807" "-1" "1e400"
  "refs/proposals/x" "--state" "\$(id)" "\`id\`" "%s%n" "NaN")
dates=(2027-03-05 2027-02-29 2028-02-29 2027-13-01 2027-00-10 27-3-5 TBA "" 2027-3-05
  "２０２７-03-05" 9999-12-31)

noise() {
  case $((RANDOM % 6)) in
  0) head -c $((RANDOM % 40 + 1)) /dev/urandom | tr -d '\n\0' ;;
  1) printf '%*s' $((RANDOM % 4096 + 1)) '' | tr ' ' x ;;
  2) printf 'a\tb\x1b[31mc\rd' ;;
  3) printf '%s' "$(pick words) $(pick words) $(pick words)" ;;
  4) printf '   ' ;;
  *) printf '%s' "$(pick ids)" ;;
  esac
}

line() {
  case $((RANDOM % 21)) in
  0 | 1 | 2) echo "signin ada lovelace" ;;
  3) echo "signin $(pick words) $(pick words)" ;;
  4 | 5) echo "add e$((RANDOM % 8)) $(pick words) --date $(pick dates) --venue \"$(pick words)\"" ;;
  6) echo "rename $(pick ids) $(pick words)" ;;
  7) echo "reschedule $(pick ids) $(pick dates)" ;;
  8 | 9) echo "propose $(pick words)" ;;
  10) echo "merge $(pick words)" ;;
  11) echo "select $(pick words)" ;;
  12) echo "$(pick commands)" ;;
  13) echo "quit $(pick words)" ;;
  14) echo "$(pick commands) $(noise)" ;;
  15) echo "$(pick commands) $(pick words) $(noise) $(pick words)" ;;
  16) noise; echo ;;
  17) echo "# $(noise)" ;;
  18) echo "" ;;
  *) echo "$(pick commands) $(pick ids) $(pick dates) $(pick words)" ;;
  esac
}

traps=0
hangs=0
leaks=0
sessions=0
mkdir "$work/tmp"
run_mode() {
  local mode=$1 arguments=() story done=0 started=$SECONDS
  while [ "$done" -lt "$lines_per_mode" ]; do
    if [ $((done / session_lines % 10)) -eq 0 ]; then
      story="$work/$mode-$done"
      mkdir "$story"
      case $mode in
      memory) arguments=(repl) ;;
      state) arguments=(--state "$story/state.json" repl) ;;
      git)
        git init --quiet --bare "$story/catalogue.git"
        arguments=(--state "$story/state.json" --backend git --remote "$story/catalogue.git" repl)
        ;;
      esac
    fi
    local input="$work/$mode-$sessions.txt" count=$session_lines
    [ $((lines_per_mode - done)) -lt "$count" ] && count=$((lines_per_mode - done))
    for ((i = 0; i < count; i++)); do line; done >"$input"
    TMPDIR="$work/tmp" timeout 120 "$binary" "${arguments[@]}" <"$input" >"$work/out.txt" \
      2>"$work/err.txt"
    local status=$?
    sessions=$((sessions + 1))
    done=$((done + count))
    if [ -n "$(ls "$work/tmp")" ]; then
      leaks=$((leaks + 1))
      echo "fuzz: $mode session $sessions left $(ls "$work/tmp") behind" >&2
      rm -rf "${work:?}/tmp/"*
    fi
    if [ "$status" -eq 124 ]; then
      hangs=$((hangs + 1))
      echo "fuzz: $mode session $sessions hung; input kept: $input" >&2
    elif [ "$status" -gt 1 ] || grep -q "Fatal error" "$work/err.txt"; then
      traps=$((traps + 1))
      echo "fuzz: $mode session $sessions ended with status $status; input kept: $input" >&2
      head -n 5 "$work/err.txt" >&2
    else
      rm -f "$input"
    fi
  done
  echo "fuzz: $mode: $done lines in $((SECONDS - started)) s"
}

for mode in memory state git; do run_mode "$mode"; done
echo "fuzz: seed $seed, $sessions sessions, $((3 * lines_per_mode)) lines:" \
  "$traps traps, $hangs hangs, $leaks leaks"
[ $((traps + hangs + leaks)) -eq 0 ] && rm -rf "$work"
[ $((traps + hangs + leaks)) -eq 0 ]
