import { useMatches, type UIMatch } from 'react-router';
import { useT } from '@/lib/i18n';

/** Route data (`handle`) every titled route carries. */
export interface RouteHandle {
  title: string;
  /** Where the breadcrumb of a grouping route links to; grouping routes without it are plain text. */
  to?: string;
}

export interface Crumb {
  title: string;
  to?: string;
}

const handleOf = (match: UIMatch): RouteHandle | undefined => {
  const handle = match.handle as RouteHandle | undefined;
  return handle && typeof handle.title === 'string' ? handle : undefined;
};

/** The title of the deepest matched route, in the user's language. */
export function useRouteTitle(): string | undefined {
  const matches = useMatches();
  const t = useT();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = handleOf(matches[i]);
    if (handle) return t(handle.title);
  }
  return undefined;
}

/** Breadcrumbs from the matched routes' titles; a repeated title (a group and its index page) shows once. */
export function useCrumbs(): Crumb[] {
  const t = useT();
  const crumbs: Crumb[] = [];
  for (const match of useMatches()) {
    const handle = handleOf(match);
    if (!handle) continue;
    const last = crumbs[crumbs.length - 1];
    if (last?.title === t(handle.title)) continue;
    crumbs.push({ title: t(handle.title), to: handle.to });
  }
  return crumbs;
}
