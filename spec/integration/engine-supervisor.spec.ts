import assert from 'node:assert/strict';
import {
  EngineSupervisor,
  type EngineExit,
  type EngineRun,
  type LaunchEngine,
  type SupervisorOptions,
} from '../../lib/db/engine-supervisor.js';
import { sleep, waitFor } from '../support/engine-helpers.js';

/** A pretend engine process: dies when told to. */
class FakeRun implements EngineRun {
  readonly exited: Promise<EngineExit>;
  stopped = false;
  private end: (exit: EngineExit) => void = () => undefined;
  constructor(
    readonly port: number,
    readonly pid: number,
  ) {
    this.exited = new Promise((resolve) => {
      this.end = resolve;
    });
  }
  die(detail = 'boom'): void {
    this.end({ code: 1, signal: null, detail });
  }
  stop(): Promise<void> {
    this.stopped = true;
    this.end({ code: 0, signal: null, detail: '' });
    return this.exited.then(() => undefined);
  }
}

/** A launcher whose behaviour per attempt the test decides; records what it was asked. */
function fakeLauncher(behaviour: (attempt: number, port: number | null) => 'ok' | 'fail') {
  const calls: Array<{ port: number | null; at: number }> = [];
  const runs: FakeRun[] = [];
  let pid = 1000;
  const launch: LaunchEngine = (port) => {
    calls.push({ port, at: Date.now() });
    if (behaviour(calls.length, port) === 'fail') return Promise.reject(new Error(`port ${String(port)} is taken`));
    const run = new FakeRun(port ?? 40_000, pid++);
    runs.push(run);
    return Promise.resolve(run);
  };
  return { launch, calls, runs };
}

const quick: SupervisorOptions = { backoffMs: [10, 20, 40, 80], maxFailures: 5, failureWindowMs: 60_000 };

describe('engine supervisor', () => {
  it('gives up after repeated failures and calls the callback once', async () => {
    const fake = fakeLauncher((attempt) => (attempt === 1 ? 'ok' : 'fail'));
    const logs: string[] = [];
    const gaveUp: Error[] = [];
    const sup = await EngineSupervisor.start(fake.launch, {
      ...quick,
      log: (m) => logs.push(m),
      onGiveUp: (err) => gaveUp.push(err),
    });
    fake.runs[0]?.die('out of memory');
    await waitFor(() => gaveUp.length > 0, 5_000, 'the give-up callback');
    // The death, then four failed restarts: five failures.
    assert.equal(fake.calls.length, 5);
    assert.deepEqual(
      fake.calls.map((c) => c.port),
      [null, 40_000, 40_000, 40_000, 40_000],
      'every restart asks for the same port',
    );
    // Backed off: 10, 20, 40, 80 ms before the 1st to 4th attempt.
    const gaps = fake.calls.slice(1).map((c, i) => c.at - (fake.calls[i]?.at ?? 0));
    assert.ok((gaps[1] ?? 0) >= 15 && (gaps[3] ?? 0) >= 70, `gaps ${gaps.join(', ')}`);
    assert.equal(sup.state, 'failed');
    assert.match(gaveUp[0]?.message ?? '', /failed 5 times .*port 40000 is taken/);
    assert.ok(logs.some((m) => m.includes('exited with code 1: out of memory')));
    await sleep(200);
    assert.equal(gaveUp.length, 1);
    assert.equal(fake.calls.length, 5, 'no attempt after giving up');
  });

  it('gives up on a crash loop: restarts that work but die at once', async () => {
    const fake = fakeLauncher(() => 'ok');
    const gaveUp: Error[] = [];
    const sup = await EngineSupervisor.start(fake.launch, {
      ...quick,
      log: () => undefined,
      onGiveUp: (err) => gaveUp.push(err),
      onRestart: (run) => {
        fake.runs.find((r) => r.pid === run.pid)?.die();
      },
    });
    fake.runs[0]?.die();
    await waitFor(() => gaveUp.length > 0, 5_000, 'the give-up callback');
    assert.equal(fake.runs.length, 5);
    assert.equal(sup.state, 'failed');
    assert.equal(sup.restartCount, 4);
  });

  it('restarts, then keeps going while failures stay rare (outside the window)', async () => {
    const fake = fakeLauncher(() => 'ok');
    const gaveUp: Error[] = [];
    const sup = await EngineSupervisor.start(fake.launch, {
      ...quick,
      failureWindowMs: 40,
      log: () => undefined,
      onGiveUp: (err) => gaveUp.push(err),
    });
    for (let i = 0; i < 7; i++) {
      await sleep(60);
      fake.runs.at(-1)?.die();
      await waitFor(() => sup.restartCount === i + 1, 2_000, `restart ${i + 1}`);
    }
    assert.equal(gaveUp.length, 0);
    assert.equal(sup.state, 'running');
    assert.equal(sup.pid, fake.runs.at(-1)?.pid);
    await sup.stop();
    assert.equal(fake.runs.at(-1)?.stopped, true);
  });

  it('does not restart after stop(), and stop() cancels a pending restart', async () => {
    const fake = fakeLauncher(() => 'ok');
    const sup = await EngineSupervisor.start(fake.launch, { ...quick, backoffMs: [300], log: () => undefined });
    fake.runs[0]?.die();
    await sleep(20);
    assert.equal(sup.state, 'restarting');
    await sup.stop();
    await sleep(400);
    assert.equal(fake.calls.length, 1, 'the pending restart was cancelled');
    assert.equal(sup.state, 'stopped');

    const fake2 = fakeLauncher(() => 'ok');
    const sup2 = await EngineSupervisor.start(fake2.launch, { ...quick, log: () => undefined });
    await sup2.stop();
    await sleep(100);
    assert.equal(fake2.runs[0]?.stopped, true);
    assert.equal(fake2.calls.length, 1, 'a deliberate stop is no death');
  });
});
