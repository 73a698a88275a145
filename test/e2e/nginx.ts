import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CANDIDATES = [process.env['NGINX_PATH'], '/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].filter(
  (p): p is string => Boolean(p),
);

/**
 * Finds nginx, installing Debian's package with apt-get when running as root. The nginx tests never skip:
 * without nginx this throws with a one-line explanation and the test run fails.
 */
export function ensureNginx(): string {
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error('nginx not found: install the Debian package "nginx" (apt-get install -y nginx) or set NGINX_PATH');
  }
  console.log('Installing nginx (Debian package "nginx") for the hosting tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'inherit', env });
  const installed = CANDIDATES.find((p) => existsSync(p));
  if (!installed) throw new Error('nginx installation finished but /usr/sbin/nginx is still missing');
  return installed;
}

/** Fills the placeholders of deploy/nginx.conf; a placeholder left over is an error, not a broken server. */
export function renderNginxConf(template: string, values: { dist: string; listen: string }): string {
  const conf = template.replaceAll('__DIST__', values.dist).replaceAll('__LISTEN__', values.listen);
  const left = /__[A-Z][A-Z0-9_]*__/.exec(conf);
  if (left) throw new Error(`deploy/nginx.conf has a placeholder the test setup does not fill: ${left[0]}`);
  return conf;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.setTimeout(1000, () => req.destroy());
  });
}

export interface RunningNginx {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Starts nginx in the foreground as a child process with deploy/nginx.conf filled in for `distDir` and a
 * free local port, and a temporary prefix for its pid, logs and temp folders. Resolves once it answers.
 */
export async function startNginx(options: { nginx: string; template: string; distDir: string }): Promise<RunningNginx> {
  const prefix = await mkdtemp(path.join(tmpdir(), 'docs-nginx-'));
  await mkdir(path.join(prefix, 'logs'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const confFile = path.join(prefix, 'nginx.conf');
    await writeFile(
      confFile,
      renderNginxConf(options.template, { dist: options.distDir, listen: `127.0.0.1:${port}` }),
    );
    const child = spawn(options.nginx, ['-p', `${prefix}/`, '-c', confFile, '-e', 'stderr', '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    const up = await waitUntilUp(url, child, exited);
    if (up) {
      const kill = () => child.kill('SIGTERM');
      process.once('exit', kill);
      return {
        url,
        stop: async () => {
          process.off('exit', kill);
          if (child.exitCode === null && child.signalCode === null) {
            // SIGTERM is nginx's fast shutdown: the master stops its workers, then exits.
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(timer);
          }
          await rm(prefix, { recursive: true, force: true });
        },
      };
    }
    const log = await readFile(path.join(prefix, 'logs/error.log'), 'utf8').catch(() => '');
    // Another process may have taken the port between the probe and nginx's bind: try another one.
    if (/Address already in use/.test(stderr + log) && attempt < 5) continue;
    await rm(prefix, { recursive: true, force: true });
    throw new Error(`nginx did not start with deploy/nginx.conf:\n${stderr}${log}`.trimEnd());
  }
}

async function waitUntilUp(url: string, child: ChildProcess, exited: Promise<number | null>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (gone) return false;
    if (await answers(url)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  await exited;
  return false;
}
