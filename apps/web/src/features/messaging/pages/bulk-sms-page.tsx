import { CampaignComposer } from '../components/campaign-composer';

/** Bulk SMS: one text to contact groups, pasted numbers and an uploaded file (issue #11). */
export default function BulkSmsPage() {
  return <CampaignComposer kind="bulk" />;
}
