import cliProgress from 'cli-progress';

/** Where a long-running command reports how far it has got, phase by phase. */
export interface Progress {
  /** A new phase of `total` steps (0: unknown); ends the one before. */
  phase(label: string, total: number): void;
  tick(steps?: number): void;
  /** A message (a warning) shown without breaking the bar. */
  note(message: string): void;
  /** Ends the last phase. */
  done(): void;
}

export const SILENT: Progress = { phase() {}, tick() {}, note() {}, done() {} };

/** A bar on a terminal (cli-progress), plain lines (at each tenth and every 5 s) otherwise. */
export function consoleProgress(command: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? barProgress(command, stream) : lineProgress(command, stream);
}

function barProgress(command: string, stream: NodeJS.WriteStream): Progress {
  const bars = new cliProgress.MultiBar(
    {
      stream,
      format: `${command} {phase} [{bar}] {percentage}% | {value}/{total} | {duration_formatted} (eta {eta_formatted})`,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | null = null;
  return {
    phase(label, total) {
      bar?.stop();
      bar = bars.create(total, 0, { phase: label.padEnd(12) });
    },
    tick(steps = 1) {
      bar?.increment(steps);
    },
    note(message) {
      bars.log(`${message}\n`);
    },
    done() {
      bar?.stop();
      bars.stop();
    },
  };
}

function lineProgress(command: string, stream: NodeJS.WriteStream): Progress {
  let label = '';
  let total = 0;
  let value = 0;
  let shownTenth = -1;
  let shownAt = 0;
  let shownValue = -1;
  const show = (force: boolean) => {
    const tenth = total > 0 ? Math.floor((value * 10) / total) : -1;
    if (!force && tenth === shownTenth && Date.now() - shownAt < 5000) return;
    if (value === shownValue) return;
    shownTenth = tenth;
    shownAt = Date.now();
    shownValue = value;
    const of = total > 0 ? `/${total} (${Math.floor((value * 100) / total)}%)` : '';
    stream.write(`${command}: ${label} ${value}${of}\n`);
  };
  const end = () => {
    if (label !== '') show(true);
  };
  return {
    phase(next, steps) {
      end();
      label = next;
      total = steps;
      value = 0;
      shownTenth = -1;
      shownValue = -1;
      shownAt = Date.now();
    },
    tick(steps = 1) {
      value += steps;
      show(false);
    },
    note(message) {
      stream.write(`${message}\n`);
    },
    done() {
      end();
      label = '';
    },
  };
}
