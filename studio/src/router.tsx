import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// A tiny history router: Studio's paths all live under /studio/, and the server answers the
// page for every one of them, so deep links and reloads land here.
export const BASE = '/studio/';

const listeners = new Set<() => void>();

function notify(): void {
  for (const l of listeners) l();
}

/**
 * What a page with unsaved work registers: `blocks` says whether leaving now would lose it, and
 * `ask` lets the person choose (it calls `leave` to go on). One page edits at a time.
 */
export interface LeaveGuard {
  blocks: () => boolean;
  ask: (leave: () => void) => void;
}

let leaveGuard: LeaveGuard | null = null;

/** Registers the guard for in-app navigation and the browser's back and forward; returns its removal. */
export function guardLeaving(guard: LeaveGuard): () => void {
  leaveGuard = guard;
  return () => {
    if (leaveGuard === guard) leaveGuard = null;
  };
}

/** The address shown, so a back or forward the guard holds can be put back. */
let shown = location.pathname + location.search;

function go(to: string, replace: boolean, toTop = true): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  shown = location.pathname + location.search;
  notify();
  if (toTop) window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  const target = location.pathname + location.search;
  if (leaveGuard?.blocks()) {
    // The browser has already moved: show the page's address again until the person decides.
    history.pushState(null, '', shown);
    leaveGuard.ask(() => {
      go(target, false);
    });
    return;
  }
  shown = target;
  notify();
});

/** The path below /studio/, split into segments. */
export function currentSegments(): string[] {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  return rest.split('/').filter(Boolean).map(decodeURIComponent);
}

export function href(...segments: string[]): string {
  return BASE + segments.map(encodeURIComponent).join('/');
}

export function navigate(to: string, replace = false): void {
  if (leaveGuard?.blocks()) {
    leaveGuard.ask(() => {
      go(to, replace);
    });
    return;
  }
  go(to, replace);
}

/**
 * Replaces the address's query (a list's view: its filters, sort, page) in place: a new history
 * entry unless `replace` (typing in a search box would add one per key), and no scroll.
 */
export function setSearch(params: URLSearchParams, replace = false): void {
  const query = params.toString();
  const to = location.pathname + (query ? `?${query}` : '');
  if (to === location.pathname + location.search) return;
  // The same page with another view: it keeps its scroll.
  go(to, replace, false);
}

export function useLocation(): { segments: string[]; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => {
      setTick((t) => t + 1);
    };
    listeners.add(l);
    return () => listeners.delete(l);
  }, []);
  return { segments: currentSegments(), search: new URLSearchParams(location.search) };
}

interface LinkProps {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
  'aria-label'?: string;
}

/** An ordinary link (open in a new tab works) that routes in place on a plain click. */
export function Link({ to, children, ...rest }: LinkProps) {
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
