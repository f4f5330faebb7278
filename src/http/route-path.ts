// Route paths of the route tables (`/v1/api-public/orders/{order_id}`) matched against a request's path
// as sent: undecoded, without the query. A parameter matches its own pattern, by default one segment.

/** A compiled route path: the route and the regular expression of its path. */
export interface PathMatcher<R> {
  /** The route whose path matches exactly, with its parameters; undefined when none does. */
  match(path: string): { route: R; params: Record<string, string> } | undefined;
}

/** Compiles the paths of a route table; `patterns` gives a parameter's own pattern (regex source). */
export function pathMatcher<
  R extends { readonly path: string; readonly pathParams?: Readonly<Record<string, string>> },
>(routes: readonly R[]): PathMatcher<R> {
  const exact = new Map<string, R>();
  const templated: { route: R; regex: RegExp; names: string[] }[] = [];
  for (const route of routes) {
    if (!route.path.includes('{')) {
      exact.set(route.path, route);
      continue;
    }
    const names: string[] = [];
    const source = route.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return `(${route.pathParams?.[name] ?? '[^/]+'})`;
      })
      .join('');
    templated.push({ route, regex: new RegExp(`^${source}$`), names });
  }
  return {
    match(path) {
      const found = exact.get(path);
      if (found !== undefined) return { route: found, params: {} };
      for (const { route, regex, names } of templated) {
        const values = regex.exec(path);
        if (values === null) continue;
        return { route, params: Object.fromEntries(names.map((name, i) => [name, values[i + 1] ?? ''])) };
      }
      return undefined;
    },
  };
}
