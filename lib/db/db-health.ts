import type {
  MongoClient,
  ServerDescription,
  ServerHeartbeatFailedEvent,
  TopologyDescription,
  TopologyDescriptionChangedEvent,
} from 'mongodb';

/** Server types that take writes: the service needs one of them to work. */
const WRITABLE = new Set<string>(['Standalone', 'RSPrimary', 'Mongos', 'LoadBalancer']);

export interface DbHealthStatus {
  up: boolean;
  /** When the database last went up or down. */
  since: Date;
  /** Why it is down (the driver's last error), null while up. */
  reason: string | null;
}

/** What the HTTP layer needs to know of the database's health. */
export interface HealthView {
  isUp(): boolean;
}

export type DbHealthListener = (status: DbHealthStatus) => void;

/**
 * Whether the database is reachable right now, as the driver sees it. Fed by the driver's server
 * discovery and monitoring: its monitor checks the server every heartbeatFrequencyMS (see
 * connectDatabase) and, like any operation that hits a network error, marks it Unknown when that
 * fails, which changes the topology description; a later successful check marks it known again.
 * So a dead engine shows as down within one heartbeat (or at once, when a request hit it first),
 * and as up again within one heartbeat of its return. No timers of its own, no extra queries.
 *
 * Attach it before client.connect(), so it sees the first description.
 */
export class DbHealth implements HealthView {
  private up = false;
  private since = new Date();
  private reason: string | null = 'not connected yet';
  private lastHeartbeatError: string | null = null;
  private readonly listeners = new Set<DbHealthListener>();

  constructor(client: MongoClient) {
    client.on('topologyDescriptionChanged', (event: TopologyDescriptionChangedEvent) => {
      this.fromTopology(event.newDescription);
    });
    client.on('serverHeartbeatFailed', (event: ServerHeartbeatFailedEvent) => {
      this.lastHeartbeatError = event.failure.message;
    });
    client.on('serverHeartbeatSucceeded', () => {
      this.lastHeartbeatError = null;
    });
    client.on('topologyClosed', () => {
      this.set(false, 'the client is closed');
    });
  }

  /** True while the driver knows a server that takes writes. */
  isUp(): boolean {
    return this.up;
  }

  status(): DbHealthStatus {
    return { up: this.up, since: this.since, reason: this.reason };
  }

  /** Called on every change between up and down; returns a function that unsubscribes. */
  onChange(listener: DbHealthListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private fromTopology(description: TopologyDescription): void {
    const servers: ServerDescription[] = [...description.servers.values()];
    if (servers.some((s) => WRITABLE.has(s.type))) {
      this.set(true, null);
      return;
    }
    const errors = servers.map((s) => s.error?.message).filter((m): m is string => Boolean(m));
    const reason =
      errors[0] ??
      this.lastHeartbeatError ??
      (servers.length === 0 ? 'no server known' : `no server takes writes (${servers.map((s) => s.type).join(', ')})`);
    this.set(false, reason);
  }

  private set(up: boolean, reason: string | null): void {
    if (up === this.up) {
      // Keep the newest reason while down.
      if (!up) this.reason = reason;
      return;
    }
    this.up = up;
    this.reason = reason;
    this.since = new Date();
    const status = this.status();
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch {
        // A listener's failure is its own business.
      }
    }
  }
}
