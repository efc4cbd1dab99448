// The pure-JS libraries every service process loads, bundled into the code that uses them instead
// of loaded from node_modules: their hundreds of module files are then one compile instead of as
// many resolutions and reads (loaded from node_modules, Kysely, zod and Hono cost every process
// that imports them about half a second of CPU: docs/decisions.md). Every other dependency stays in
// node_modules (the native ones must). Read by the build (electron.vite.config.ts) and by the test
// fixtures run as processes of their own (src-main/service/test/fixture-bundle.ts).
export const BUNDLED_DEPS = ['kysely', 'zod', 'hono', '@hono/node-server'];
