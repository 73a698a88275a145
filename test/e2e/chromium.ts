import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => Boolean(p),
);

/**
 * Finds Debian's Chromium, installing it with apt-get when running as root. Browser tests never skip:
 * without a browser this throws with a one-line explanation and the test run fails.
 */
export function ensureChromium(): string {
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'Chromium not found: install the Debian package "chromium" (apt-get install -y chromium) or set CHROMIUM_PATH',
    );
  }
  console.log('Installing Chromium (Debian package "chromium") for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  const installed = CANDIDATES.find((p) => existsSync(p));
  if (!installed) throw new Error('Chromium installation finished but /usr/bin/chromium is still missing');
  return installed;
}

/** Flags for headless Chromium on a machine whose network is closed. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
