import { machineLine } from './bench-apps.js';
import { startEngine } from '../../lib/db/engine.js';
import { PEERS_INSTALL_HINT, peersInstalled } from './parse-peer.js';
import { peerOptionsFromEnv, runPeerBench } from './peer-bench.js';

/*
 * `npm run bench:peers`: the service beside Parse Server and the fastest driver handler alone
 * (settings: peerOptionsFromEnv in peer-bench.ts). Not part of `npm test`. Parse Server is
 * installed apart from the service: `npm run bench:peers:install` (spec/bench/peers).
 */

async function main(): Promise<void> {
  if (!peersInstalled()) {
    console.error(PEERS_INSTALL_HINT);
    process.exitCode = 1;
    return;
  }
  const engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
  try {
    const o = peerOptionsFromEnv(engine);
    console.log(`Engine: ${engine.name}`);
    console.log(machineLine());
    console.log(
      `Load: ${o.load.connections} connections, ${o.rounds} rounds of ${o.load.seconds} s per scenario ` +
        `(each after ${o.load.warmupSeconds} s warm-up), servers in child processes on 127.0.0.1` +
        o.compare.map((c) => `; "${c.label}" is the service built in ${c.root}`).join(''),
    );
    await runPeerBench(o);
  } finally {
    await engine.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
