import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ApiReportPage() {
  return <ScreenPlaceholder description="Usage of one API key over time." />;
}
