/**
 * A schema built at its first use: {@link lazySchema} returns a stand-in that builds the
 * zod schema the first time anything reads it (`safeParse`, `_zod`, …) and forwards every
 * read to it from then on.
 *
 * Why: the input schemas are exported constants, and in the Node build (dist/node.js)
 * "zod/mini" is `require`d at its first use (ts/deps/zod-mini.node.ts), so that
 * `import("groundwire")` does not load zod (≈ 100 files, ≈ 100 ms of start-up) before a
 * critique, op list or goal is validated. In a browser bundle zod is imported statically
 * (tree-shaken) and the stand-in only defers building.
 *
 * The stand-in is a Proxy: property reads, `in`, key listing and `instanceof` go to the
 * built schema (zod 4's parsing, `z.toJSONSchema` and the MCP SDK read schemas only through
 * properties, `_zod` first). Identity differs: the stand-in is not `===` the built schema.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const get = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => {
      const target = get();
      const value = Reflect.get(target, key, target);
      return value;
    },
    has: (_, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(get(), key);
      // a proxy may only report a property non-configurable if its target has it so
      return d === undefined ? undefined : { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(get()),
    set: (_, key, value) => Reflect.set(get(), key, value),
  });
}
