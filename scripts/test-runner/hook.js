// Preloaded (--require) into every test process: `require('x.ts')` runs tsc's own output for that file
// (dist/<same path>.js, written by the one `tsc -b tsconfig.test.json` of `npm test`) instead of
// compiling it again, as tsx did in every one of the ~200 processes (about 0.5 s of CPU each).
// The module keeps its source path, so __dirname and relative requires behave as under tsx.
// A source newer than its compiled copy (edited since the last build) is transpiled here, in memory,
// with the project's TypeScript — a subset run after an edit tests the edit, not the last build.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const root = join(__dirname, '..', '..');
const dist = join(root, 'dist');
let ts;

function compiledCopy(filename) {
  const rel = relative(root, filename);
  if (rel.startsWith('..') || rel.startsWith(`dist${sep}`) || rel.includes(`node_modules${sep}`)) return undefined;
  const js = join(dist, rel.replace(/\.ts$/, '.js'));
  try {
    if (statSync(js).mtimeMs < statSync(filename).mtimeMs) return undefined;
    // The source map comment names a file beside the compiled copy; point it there.
    return readFileSync(js, 'utf8').replace(/^\/\/# sourceMappingURL=(.*)$/m, (_, map) => `//# sourceMappingURL=${join(js, '..', map)}`);
  } catch {
    return undefined;
  }
}

function transpile(filename) {
  ts ??= require('typescript');
  const out = ts.transpileModule(readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, inlineSourceMap: true },
  });
  return out.outputText;
}

require.extensions['.ts'] = function loadTypeScript(module, filename) {
  module._compile(compiledCopy(filename) ?? transpile(filename), filename);
};
