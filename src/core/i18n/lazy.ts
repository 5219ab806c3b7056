/**
 * A catalog built a group of keys at a time, on first use (docs/portugues.md "How the catalogs
 * load"). In the bundle, the build (tsup.config.ts, scripts/lib/catalog-groups.ts) rewrites
 * ./en.ts and ./pt-BR.ts into `lazyCatalog({ group: () => ({ ...its keys }) })`: a run then builds
 * only the groups it reads (a cash-out about 15 of some 150), instead of the whole catalog's
 * thousand-odd texts and functions at every start. The sources stay one flat object each (the keys,
 * their types and the Portuguese completeness check are unchanged), and tests read them as such.
 */

/** The group of `key`: everything before its last dot (`help.cashout.pixKey` → `help.cashout`, `exit.0` → `exit`). */
export function groupOf(key: string): string {
  const dot = key.lastIndexOf('.');
  return dot < 0 ? key : key.slice(0, dot);
}

/** The groups of a catalog: each builds the object of its keys (keys grouped by {@link groupOf}). */
export type CatalogGroups = Readonly<Record<string, () => Readonly<Record<string, unknown>>>>;

/**
 * A catalog object whose keys are built by group on first read: reading a key (`cat[key]`,
 * `key in cat`) builds its group once; listing the keys (`Object.keys`) builds them all. Reads of
 * a key no group has give undefined, as on a plain object.
 * @param groups the groups, by name, in the order of the source
 * @param rest the catalog's other groups, asked for (once) when a key outside `groups` is read or the keys are
 *   listed: in the bundle, a chunk of their own required then (scripts/lib/catalog-groups.ts `HOT_GROUPS`)
 */
export function lazyCatalog<C extends object>(groups: CatalogGroups, rest?: () => CatalogGroups): C {
  const built: Record<string, unknown> = {};
  const done = new Set<string>();
  let others: CatalogGroups | undefined;
  const groupsOf = (name: string): CatalogGroups | undefined => {
    if (Object.hasOwn(groups, name)) return groups;
    others ??= rest?.() ?? {};
    return Object.hasOwn(others, name) ? others : undefined;
  };
  const build = (name: string): void => {
    if (done.has(name)) return;
    const from = groupsOf(name);
    if (!from) return;
    done.add(name);
    Object.assign(built, from[name]!());
  };
  const buildAll = (): void => {
    for (const name of Object.keys(groups)) build(name);
    others ??= rest?.() ?? {};
    for (const name of Object.keys(others)) build(name);
  };
  const ensure = (key: string | symbol): void => {
    if (typeof key === 'string' && !Object.hasOwn(built, key)) build(groupOf(key));
  };
  return new Proxy(built, {
    get(target, key) {
      ensure(key);
      return Reflect.get(target, key);
    },
    has(target, key) {
      ensure(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      ensure(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      buildAll();
      return Reflect.ownKeys(target);
    },
  }) as C;
}
