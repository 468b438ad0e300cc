import { useMainButton, useSecondaryButton, type BottomButtonSpec } from '../../lib/native-ui';
import { Button } from './button';

interface ActionProps extends BottomButtonSpec {
  /** Test id of the in-page fallback (the native button is Telegram's, outside the page). */
  testId?: string;
}

/**
 * A screen's primary action on Telegram's bottom button; in the page only where the client has
 * none.
 */
export function MainAction({ testId, ...spec }: ActionProps) {
  const native = useMainButton(spec);
  if (native || spec.visible === false) return null;
  return (
    <Button block size="lg" onClick={spec.onClick} disabled={spec.enabled === false} loading={spec.loading} data-testid={testId}>
      {spec.text}
    </Button>
  );
}

/** The second action on Telegram's secondary button (clients ≥ 7.10), else in the page. */
export function SecondaryAction({ testId, ...spec }: ActionProps) {
  const native = useSecondaryButton(spec);
  if (native || spec.visible === false) return null;
  return (
    <Button block size="lg" variant="secondary" onClick={spec.onClick} disabled={spec.enabled === false} loading={spec.loading} data-testid={testId}>
      {spec.text}
    </Button>
  );
}
