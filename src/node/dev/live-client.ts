import path from 'node:path';
import * as esbuild from 'esbuild';

/** Bundles src/client/dev/live.ts for the browser: one classic script, not minified (it is for writers' eyes). */
export async function bundleLiveClient(srcDir: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [path.join(srcDir, 'client/dev/live.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}
