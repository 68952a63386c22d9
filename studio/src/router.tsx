import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// A tiny history router: Studio's paths all live under /studio/, and the server answers the
// page for every one of them, so deep links and reloads land here.
export const BASE = '/studio/';

const listeners = new Set<() => void>();

function notify(): void {
  for (const l of listeners) l();
}
window.addEventListener('popstate', notify);

/** The path below /studio/, split into segments. */
export function currentSegments(): string[] {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  return rest.split('/').filter(Boolean).map(decodeURIComponent);
}

export function href(...segments: string[]): string {
  return BASE + segments.map(encodeURIComponent).join('/');
}

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
  window.scrollTo(0, 0);
}

/**
 * Replaces the address's query (a list's view: its filters, sort, page) in place: a new history
 * entry unless `replace` (typing in a search box would add one per key), and no scroll.
 */
export function setSearch(params: URLSearchParams, replace = false): void {
  const query = params.toString();
  const to = location.pathname + (query ? `?${query}` : '');
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
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
