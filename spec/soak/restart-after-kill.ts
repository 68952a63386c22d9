import { bucketctl, ServiceProcess, tempServiceEnv } from './service.js';

/**
 * Restarts after kill -9, the way a process manager restarts a crashed service: the server (and
 * with it the embedded engine's owner) is killed, started again after RESTART_DELAY_MS, and must
 * come up in one life with every acknowledged write there. Prints each restart's time to ready
 * and a summary: `npm run soak:restarts` (ROUNDS=10 by default).
 */

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const RESTART_DELAY_MS = Number(process.env.RESTART_DELAY_MS ?? 500);
const READY_TIMEOUT_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function write(service: ServiceProcess, writeKey: string, title: string): Promise<string> {
  const res = await fetch(`${service.baseUrl}/v3/buckets/restarts/objects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${writeKey}` },
    body: JSON.stringify({ title, type: 'notes' }),
  });
  const body = (await res.json()) as { object?: { id: string } };
  if (res.status !== 200 || !body.object) throw new Error(`write answered ${res.status}: ${JSON.stringify(body)}`);
  return body.object.id;
}

async function present(service: ServiceProcess, writeKey: string, id: string): Promise<boolean> {
  const res = await fetch(`${service.baseUrl}/v3/buckets/restarts/objects/${id}?status=any`, {
    headers: { authorization: `Bearer ${writeKey}` },
  });
  await res.arrayBuffer();
  return res.status === 200;
}

async function main(): Promise<void> {
  const e = await tempServiceEnv('restarts-');
  let service = ServiceProcess.spawn(e);
  await service.waitReady(READY_TIMEOUT_MS);
  const keys = JSON.parse(await bucketctl(e, ['create-bucket', 'restarts'])) as { write_key: string };
  const typeRes = await fetch(`${service.baseUrl}/v3/buckets/restarts/object-types`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.write_key}` },
    body: JSON.stringify({ title: 'Notes', slug: 'notes' }),
  });
  if (typeRes.status !== 200) throw new Error(`type create answered ${typeRes.status}`);
  const written: string[] = [];
  const times: number[] = [];
  let failures = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    written.push(await write(service, keys.write_key, `round ${round}`));
    await service.killHard();
    await sleep(RESTART_DELAY_MS);
    const t0 = Date.now();
    service = ServiceProcess.spawn(e);
    try {
      await service.waitReady(READY_TIMEOUT_MS);
    } catch (err) {
      failures++;
      console.log(JSON.stringify({ round, failed: (err as Error).message }));
      await service.killHard();
      service = ServiceProcess.spawn(e);
      await service.waitReady(READY_TIMEOUT_MS);
      continue;
    }
    const ms = Date.now() - t0;
    times.push(ms);
    const missing = [];
    for (const id of written) if (!(await present(service, keys.write_key, id))) missing.push(id);
    console.log(JSON.stringify({ round, ready_ms: ms, missing: missing.length }));
    if (missing.length > 0) failures++;
  }
  await service.stop();
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      rounds: ROUNDS,
      failures,
      ready_ms: { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] },
      log: e.logFile,
    }),
  );
  if (failures > 0) process.exitCode = 1;
}

await main();
