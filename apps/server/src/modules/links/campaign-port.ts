/**
 * What the links module offers campaigns (modules/campaigns): a campaign's clicks over time and its
 * messages' clicks for the export. The dependency runs one way, campaigns → links.
 */
export { clickSeries, withLinkClicks } from './link-clicks.repository';
