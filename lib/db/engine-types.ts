/*
 * The engine's shape, apart from the starters: each starter (engine-java, engine-mongod) returns
 * one, and engine.ts chooses among them, so the types sit below both.
 */

/** A MongoDB wire-protocol server the service can connect to. */
export interface Engine {
  /** Human-readable, logged once at start-up. */
  name: string;
  uri: string;
  stop(): Promise<void>;
}

/** What happens when the embedded engine process dies (only mongo-java-server is restarted). */
export interface EngineSupervision {
  /** Restarts and their reasons; console.error by default. */
  log?: (msg: string) => void;
  /**
   * The engine died and repeated restarts failed: the database is gone for good. The caller should
   * exit so that a process supervisor restarts the whole service.
   */
  onGiveUp?: (err: Error) => void;
  /** The engine runs again, at the same address. */
  onRestart?: () => void;
}
