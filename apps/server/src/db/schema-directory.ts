/** Sender IDs, contact groups, contacts and templates (issue #6). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DirectoryTables {}
