/** Adds the id to the selection, or removes it when already there. */
export function toggleOne(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (!next.delete(id)) next.add(id);
  return next;
}

/** Selects every listed id, or, when all of them are already selected, none of them. */
export function toggleAll(selected: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const next = new Set(selected);
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  for (const id of ids) {
    if (allSelected) next.delete(id);
    else next.add(id);
  }
  return next;
}

/** The selection without the ids that are no longer listed (deleted, or filtered out). */
export function keepListed(selected: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const listed = new Set(ids);
  return new Set([...selected].filter((id) => listed.has(id)));
}
