import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './tree';

/**
 * The spec's route and redirect lists. A copy lives in test/fixtures/spec so the repository tests itself;
 * a test checks the copy against ../shared when that folder is beside the checkout.
 */
export const specDir = path.join(projectRoot, 'test/fixtures/spec');
export const sharedDir = path.resolve(projectRoot, '../shared');

export function specRoutes(): string[] {
  return readFileSync(path.join(specDir, 'routes.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** `[from, to]` pairs; `to` is `*` where the spec leaves the choice of the matching new page to us. */
export function specRedirects(): [string, string][] {
  return readFileSync(path.join(specDir, 'redirects.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(/\s+/) as [string, string]);
}

export const sharedAvailable = existsSync(path.join(sharedDir, 'routes.txt'));

/** The sidebar groups the spec names, in its order. */
export const SPEC_SIDEBAR_GROUPS = [
  'Workflows',
  'Reference',
  'Privacy and Security',
  'Pricing and Limits',
  'Organizations',
];
