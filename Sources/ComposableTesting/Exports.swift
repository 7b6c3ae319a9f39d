// A test imports one module, as with TCA's `import ComposableArchitecture`: the test store and
// the clocks come with the core they test (stores, reducers, effects, dependencies).
@_exported import ComposableCore
