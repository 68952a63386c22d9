import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../project-root.js';

const javaDir = path.join(projectRoot, 'lib', 'db', 'java');
const cacheDir = path.join(projectRoot, 'node_modules', '.cache', 'content-api');

function commandWorks(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.status === 0;
}

function shortHash(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex').slice(0, 16);
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' ');
}

/** Maven resolves the jars once; the classpath is cached next to the pom's hash. */
function resolveClasspath(): string {
  const pom = fs.readFileSync(path.join(javaDir, 'pom.xml'));
  const cacheFile = path.join(cacheDir, `classpath-${shortHash(pom)}.txt`);
  if (fs.existsSync(cacheFile)) {
    const cp = fs.readFileSync(cacheFile, 'utf8').trim();
    if (cp.split(path.delimiter).every((jar) => fs.existsSync(jar))) return cp;
  }
  // Checked only here: `mvn -v` starts a JVM, which every engine start would pay for nothing.
  if (!commandWorks('mvn', ['-v'])) throw new Error('mvn (Apache Maven) is not on PATH');
  fs.mkdirSync(cacheDir, { recursive: true });
  const r = spawnSync(
    'mvn',
    ['-q', '-B', '-f', path.join(javaDir, 'pom.xml'), 'dependency:build-classpath', `-Dmdep.outputFile=${cacheFile}`],
    { encoding: 'utf8' },
  );
  if (r.status !== 0 || !fs.existsSync(cacheFile)) {
    throw new Error(`Maven could not resolve mongo-java-server: ${lastLines(r.stdout + r.stderr)}`);
  }
  return fs.readFileSync(cacheFile, 'utf8').trim();
}

/**
 * Compiles the launcher's sources once into a folder named by their hash (and the classpath's).
 * Several files need javac: Java 17 runs only a single source file directly. Each compile goes
 * to its own folder, renamed into place, so processes starting engines at once never see a
 * half-written one.
 */
function compileLauncher(classpath: string): string {
  const sources = fs
    .readdirSync(javaDir)
    .filter((f) => f.endsWith('.java'))
    .sort();
  const hash = shortHash(classpath, ...sources.flatMap((f) => [f, fs.readFileSync(path.join(javaDir, f))]));
  const classes = path.join(cacheDir, `engine-classes-${hash}`);
  if (fs.existsSync(path.join(classes, 'EmbeddedMongo.class'))) return classes;
  if (!commandWorks('javac', ['-version'])) throw new Error('javac (a JDK 17 or later) is not on PATH');
  fs.mkdirSync(cacheDir, { recursive: true });
  const building = fs.mkdtempSync(path.join(cacheDir, 'engine-build-'));
  const r = spawnSync('javac', ['-nowarn', '-d', building, '-cp', classpath, ...sources], {
    cwd: javaDir,
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    fs.rmSync(building, { recursive: true, force: true });
    throw new Error(`javac could not compile the embedded engine's launcher: ${lastLines(r.stdout + r.stderr)}`);
  }
  try {
    fs.renameSync(building, classes);
  } catch {
    // Another process put the same classes in place first.
    fs.rmSync(building, { recursive: true, force: true });
  }
  return classes;
}

/** The java arguments that run the launcher: its classes and the jars it needs. */
export function launcherArgs(): string[] {
  if (!commandWorks('java', ['-version'])) throw new Error('java (17 or later) is not on PATH');
  const classpath = resolveClasspath();
  return ['-cp', [compileLauncher(classpath), classpath].join(path.delimiter), 'EmbeddedMongo'];
}
