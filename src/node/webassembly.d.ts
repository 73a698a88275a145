/**
 * The part of the WebAssembly global the build uses (Node has it; the node project's ES2022 library does
 * not declare it, and the DOM library that does is for browser code only).
 */
declare namespace WebAssembly {
  interface Module {
    readonly __wasmModule?: never;
  }
  interface Instance {
    readonly exports: Record<string, unknown>;
  }
  function compile(bytes: Uint8Array): Promise<Module>;
  function instantiate(module: Module, imports?: Record<string, Record<string, unknown>>): Promise<Instance>;
}
