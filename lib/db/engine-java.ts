import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../project-root.js';
import type { Engine } from './engine.js';

const javaDir = path.join(projectRoot, 'lib', 'db', 'java');
const READY_TIMEOUT_MS = 120_000;

function commandWorks(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.status === 0;
}

/** Maven resolves the jars once; the classpath is cached next to the pom's hash. */
function resolveClasspath(): string {
  const pom = fs.readFileSync(path.join(javaDir, 'pom.xml'));
  const hash = createHash('sha256').update(pom).digest('hex').slice(0, 16);
  const cacheDir = path.join(projectRoot, 'node_modules', '.cache', 'content-api');
  const cacheFile = path.join(cacheDir, `classpath-${hash}.txt`);
  if (fs.existsSync(cacheFile)) {
    const cp = fs.readFileSync(cacheFile, 'utf8').trim();
    if (cp.split(path.delimiter).every((jar) => fs.existsSync(jar))) return cp;
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  const r = spawnSync(
    'mvn',
    ['-q', '-B', '-f', path.join(javaDir, 'pom.xml'), 'dependency:build-classpath', `-Dmdep.outputFile=${cacheFile}`],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0 || !fs.existsSync(cacheFile)) {
    throw new Error(
      `Maven could not resolve mongo-java-server: ${(r.stdout + r.stderr).trim().split('\n').slice(-3).join(' ')}`,
    );
  }
  return fs.readFileSync(cacheFile, 'utf8').trim();
}

function waitForPort(child: ChildProcessWithoutNullStreams): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      reject(new Error('mongo-java-server did not start within 120 s'));
    }, READY_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mongo-java-server exited with code ${code}: ${err.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

/**
 * mongo-java-server as a child JVM: the memory backend for tests, the H2 backend (one file
 * under dataDir) for data that survives restarts.
 */
export async function startJavaEngine(opts: { persistent: boolean; dataDir: string }): Promise<Engine> {
  if (!commandWorks('java', ['-version'])) throw new Error('java (17 or later) is not on PATH');
  if (!commandWorks('mvn', ['-v'])) throw new Error('mvn (Apache Maven) is not on PATH');
  const classpath = resolveClasspath();
  const args = ['-cp', classpath, path.join(javaDir, 'EmbeddedMongo.java')];
  if (opts.persistent) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    args.push('h2', path.join(opts.dataDir, 'content-api.mv.db'));
  } else {
    args.push('memory');
  }
  const child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const port = await waitForPort(child);
  child.stdout.resume();
  child.stderr.resume();
  return {
    name: `mongo-java-server 1.47 (${opts.persistent ? 'H2 backend, data in ' + opts.dataDir : 'memory backend'})`,
    uri: `mongodb://127.0.0.1:${port}/`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) =>
        child.once('exit', () => {
          resolve();
        }),
      );
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
