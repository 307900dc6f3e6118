import { CampaignComposer } from '../components/campaign-composer';

/** Personalised SMS: a file's rows, each sent its own text from {{column}} placeholders (issue #11). */
export default function PersonalisedSmsPage() {
  return <CampaignComposer kind="personalised" />;
}
