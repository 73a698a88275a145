import path from 'node:path';
import { projectRoot } from '../helpers/tree';

/**
 * Where resilience tests leave the figures they measure, for `npm run bench:resilience` to print
 * (test-results/ is not committed). The tests assert; these files only report.
 */
export const SUMMARIES = {
  faultsFirstLoad: path.join(projectRoot, 'test-results/faults-first-load-summary.json'),
  faultsAfterNavigation: path.join(projectRoot, 'test-results/faults-after-navigation-summary.json'),
  load: path.join(projectRoot, 'test-results/load-summary.json'),
  fuzz: path.join(projectRoot, 'test-results/markdown-fuzz-summary.json'),
  audit: path.join(projectRoot, 'test-results/audit-summary.json'),
  axe: path.join(projectRoot, 'test-results/axe-summary.json'),
  badInputs: path.join(projectRoot, 'test-results/bad-inputs-summary.json'),
};
