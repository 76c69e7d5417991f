// The dependency rules of ARCHITECTURE.md, checked on the files each import RESOLVES to (not on the text of the
// import), type-only imports included (`tsPreCompilationDeps`): `npm run lint` runs this after ESLint.
//
//   1. no import circle anywhere in src/ (a circle of type-only imports counts too: it still ties the files'
//      meanings to each other);
//   2. the layers of main, bottom to top — each may import only itself, the layers listed for it, and src/shared:
//        fs, proc, engine                      the work-tree door, child environments, the pure engines
//        snapshot, lsp                         on fs (and proc)
//        tools                                 on the engines, fs, snapshot, lsp, proc
//        session                               on the engines, fs, snapshot
//        agent                                 on everything below it
//        host                                  on everything below it
//        electron                              on host and everything below
//   3. src/shared imports nothing of main, the renderer or the preload; the renderer and the preload import
//      nothing of main and not each other.
// Tests (`*.test.ts`) may reach across layers (an fs test may drive a tool); they are still in the circle check.
/** @type {Record<string, { path: string; uses: string[] }>} */
const LAYERS = {
  fs: { path: '^src/main/fs/', uses: [] },
  proc: { path: '^src/main/proc/', uses: [] },
  // The pure engines (edit, patch, and the text helpers they share): ESLint also holds them to no node built-in.
  engine: { path: '^src/main/engine/', uses: [] },
  snapshot: { path: '^src/main/snapshot/', uses: ['fs', 'proc'] },
  lsp: { path: '^src/main/lsp/', uses: ['fs', 'proc'] },
  tools: { path: '^src/main/tools/', uses: ['engine', 'fs', 'snapshot', 'lsp', 'proc'] },
  session: { path: '^src/main/session/', uses: ['engine', 'fs', 'snapshot'] },
  agent: { path: '^src/main/agent/', uses: ['session', 'tools', 'engine', 'fs', 'snapshot', 'lsp', 'proc'] },
  host: { path: '^src/main/host/', uses: ['agent', 'session', 'tools', 'engine', 'fs', 'snapshot', 'lsp', 'proc'] },
  electron: {
    path: '^src/main/electron/',
    uses: ['host', 'agent', 'session', 'tools', 'engine', 'fs', 'snapshot', 'lsp', 'proc'],
  },
};

const TESTS = '\\.test\\.tsx?$';

/** One rule per layer: from the layer to any part of main it does not use. */
const layerRules = Object.entries(LAYERS).map(([name, layer]) => ({
  name: `layer-${name}`,
  comment: `${name} may import only ${[name, ...layer.uses, 'shared'].join(', ')} (ARCHITECTURE.md, dependency rules)`,
  severity: 'error',
  from: { path: layer.path, pathNot: TESTS },
  to: { path: '^src/main/', pathNot: [layer.path, ...layer.uses.map((u) => LAYERS[u].path)] },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle (type-only imports included). Move the shared shape to the layer that owns it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'main-outside-layers',
      comment: 'Every folder of src/main belongs to a layer: add a new one to LAYERS in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^src/main/', pathNot: [...Object.values(LAYERS).map((l) => l.path), TESTS] },
      to: { path: '^src/' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'src/shared is the contract both sides use: it imports nothing of main, the renderer or the preload.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(main|renderer|preload)/' },
    },
    {
      name: 'renderer-uses-the-contract',
      comment: 'The renderer reaches main only through the contract (src/shared).',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(main|preload)/' },
    },
    {
      name: 'preload-uses-the-contract',
      comment: 'The preload exposes the contract (src/shared) and nothing of main.',
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { path: '^src/(main|renderer)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|dist|release)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    cache: false,
  },
};
