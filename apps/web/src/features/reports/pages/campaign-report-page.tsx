import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function CampaignReportPage() {
  return <ScreenPlaceholder description="Delivery figures for each bulk and personalised campaign." />;
}
