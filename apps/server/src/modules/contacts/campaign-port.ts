/**
 * What the campaigns module reads of contacts (issue 47 item 2): the custom field keys of the
 * contacts in a campaign's groups, which its placeholders may name. Campaigns read the contacts
 * themselves through their own scan (recipient-sources.ts); this is the one repository read they
 * need from this module, behind its boundary.
 */
export { groupFieldKeys } from './contacts.repository';
