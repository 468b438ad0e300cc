import { useEffect, useState } from 'react';

import { toast } from '../../components/ui';
import { t } from '../../i18n';
import { api } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import { ensureFeedTexts } from './texts';

type FeedSettings = components['schemas']['FeedSettingsAnswer'];

/**
 * The player's choice to show their first name on their drops (`/settings/feed`): `shown` is
 * null until the server answered; `setShown` switches at once and goes back if the server refuses.
 */
export function useShowNameSetting(): { shown: boolean | null; setShown: (show: boolean) => Promise<void> } {
  ensureFeedTexts();
  const [hidden, setHidden] = useState<boolean | null>(null);
  useEffect(() => {
    let alive = true;
    api
      .get<FeedSettings>('/settings/feed')
      .then((r) => alive && setHidden(r.hideName))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);
  const setShown = async (show: boolean) => {
    const before = hidden;
    setHidden(!show);
    try {
      const r = await api.put<FeedSettings>('/settings/feed', { hideName: !show });
      setHidden(r.hideName);
    } catch {
      setHidden(before);
      toast.error(t('common.error'));
    }
  };
  return { shown: hidden === null ? null : !hidden, setShown };
}
