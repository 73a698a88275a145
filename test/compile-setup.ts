/**
 * Vitest global set-up: the build's threads run its compiled code (src/node/compiled.ts), so it
 * is compiled here first when a source changed, as the npm scripts do before a build.
 */
import { compile } from '../src/node/compiled';
import { projectRoot } from './helpers/tree';

export default async function setup(): Promise<void> {
  await compile(projectRoot);
}
