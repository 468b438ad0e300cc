import { IconWrench, StatusScreen } from '../../components/ui';
import { useT } from '../../i18n';

/** Replaces the whole app while the server reports maintenance (spec section 1). */
export function MaintenancePage() {
  const t = useT();
  return (
    <StatusScreen
      testId="maintenance"
      icon={<IconWrench size={44} />}
      title={t('app.maintenanceTitle')}
      text={t('app.maintenanceText')}
    />
  );
}
