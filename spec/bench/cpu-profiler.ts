import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

/** A CPU profile of this process over a stretch the caller chooses (not its whole life, as --cpu-prof). */
export function cpuProfiler(): { start(): Promise<void>; stop(dir: string): Promise<string> } {
  const session = new Session();
  session.connect();
  return {
    async start() {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    async stop(dir) {
      const { profile } = await session.post('Profiler.stop');
      const file = path.join(dir, `server-${String(process.pid)}-${String(Date.now())}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}
