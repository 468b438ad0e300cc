import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from '../../lib/router';

import { Button, IconChevron, IconToken, toast } from '../../components/ui';
import { DropRibbonSlot } from '../../features/feed';
import { useGates } from '../../features/gates';
import { preloadStartData } from '../../app/preload';
import {
  checkSubscription,
  DailySheet,
  IconCalendar,
  IconCheck,
  IconHandshake,
  IconMegaphone,
  IconTarget,
  useRewards,
} from '../../features/rewards';
import { BreakNotice, useBreak } from '../../features/responsible';
import { useSession } from '../../features/session';
import { addTexts, useT } from '../../i18n';
import { formatTokens } from '../../lib/format';
import { haptic, openLink } from '../../lib/telegram';
import { FeaturedCases } from './featured-cases';
import styles from './home.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts (the featured cases' too) load with it, not in the start-up bundle.
addTexts({ ru, en });

/** Spec section 9: the check button appears 1000 ms after the subscribe link was opened. */
export const SUBSCRIBE_CHECK_DELAY_MS = 1000;

function Task({
  icon,
  title,
  subtitle,
  reward,
  done,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  subtitle?: string;
  reward: string;
  done: boolean;
  action?: ReactNode;
  testId: string;
}) {
  const t = useT();
  return (
    <li className={`${styles.task} ${done ? styles.done : ''}`} data-testid={testId} data-done={done}>
      <span className={styles.taskIcon} aria-hidden>
        {icon}
      </span>
      <span className={styles.taskText}>
        <span className={styles.taskTitle}>{title}</span>
        <span className={styles.taskSub}>
          <b className={styles.reward}>{reward}</b>
          {subtitle && <> · {subtitle}</>}
        </span>
      </span>
      {done ? (
        <span className={styles.check}>
          <IconCheck size={16} /> {t('tasks.done')}
        </span>
      ) : (
        action
      )}
    </li>
  );
}

export function HomePage() {
  const t = useT();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const streak = useRewards((s) => s.streak);
  const channelUrl = useGates((s) => s.config?.channelUrl);
  const [dailyOpen, setDailyOpen] = useState(false);
  // During a self-exclusion home offers no "Buy" and no "Open": it says the break instead.
  const onBreak = useBreak();
  const [checkVisible, setCheckVisible] = useState(false);
  const [checking, setChecking] = useState(false);
  const checkTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    void useRewards.getState().loadStreak();
    void useSession.getState().refreshBalance();
    preloadStartData();
    return () => {
      if (checkTimer.current) clearTimeout(checkTimer.current);
    };
  }, []);

  const subscribe = () => {
    haptic.light();
    if (channelUrl) openLink(channelUrl);
    if (checkTimer.current) clearTimeout(checkTimer.current);
    checkTimer.current = setTimeout(() => setCheckVisible(true), SUBSCRIBE_CHECK_DELAY_MS);
  };

  const check = async () => {
    if (checking) return;
    setChecking(true);
    try {
      const r = await checkSubscription();
      await useSession.getState().refreshBalance();
      if (r.subscribed) {
        haptic.success();
        toast.success(t('tasks.subscriptionChecked'));
      } else {
        toast.info(t('tasks.notSubscribed'));
      }
    } catch {
      haptic.error();
      toast.error(t('common.error'));
    } finally {
      setChecking(false);
    }
  };

  const dailyDone = streak !== null && !streak.nextRewardAvailable && !(streak.canClaimBonus && !streak.bonusAlreadyClaimed);
  return (
    <main className={styles.page} data-testid="page-home">
      <section className={styles.balanceCard}>
        <span className={styles.balanceLabel}>{t('home.balance')}</span>
        <span className={styles.balance} data-testid="home-balance">
          <IconToken size={30} className={styles.token} />
          <TokenAmountText value={user?.balance ?? 0} />
        </span>
        {onBreak ? (
          <BreakNotice place="home" exclusion={onBreak} />
        ) : (
          <Button size="lg" block onClick={() => navigate('/packages')} data-testid="home-buy">
            {t('home.buy')}
          </Button>
        )}
      </section>

      {/* Home sells the product: what others win (the ribbon), then cases to open, then tasks. */}
      <DropRibbonSlot />
      <FeaturedCases paused={onBreak !== null} />

      <h2 className={styles.h2}>{t('home.tasksTitle')}</h2>
      <ul className={styles.tasks}>
        <Task
          testId="task-daily"
          icon={<IconCalendar />}
          title={t('tasks.dailyTitle')}
          subtitle={t('tasks.dailyStreak', { count: streak?.currentStreak ?? 0 })}
          reward="+100"
          done={false}
          action={
            <Button size="sm" variant="secondary" onClick={() => setDailyOpen(true)} data-testid="open-daily">
              {t(dailyDone ? 'tasks.view' : 'tasks.open')}
            </Button>
          }
        />
        <Task
          testId="task-subscribe"
          icon={<IconMegaphone />}
          title={t('tasks.subscribeTitle')}
          reward="+100"
          done={user?.tgSubscribed === true}
          action={
            <span className={styles.pair}>
              {checkVisible && (
                <Button size="sm" variant="secondary" onClick={check} loading={checking} data-testid="subscribe-check">
                  {t('tasks.check')}
                </Button>
              )}
              <Button size="sm" variant="secondary" onClick={subscribe} data-testid="subscribe-go">
                {t('tasks.subscribeAction')}
              </Button>
            </span>
          }
        />
        <Task
          testId="task-invite"
          icon={<IconHandshake />}
          title={t('tasks.inviteTitle')}
          subtitle={t('tasks.inviteText')}
          reward="+500"
          done={false}
          action={
            <Button size="sm" variant="secondary" onClick={() => navigate('/referrals')}>
              {t('tasks.go')}
            </Button>
          }
        />
        <Task
          testId="task-first-case"
          icon={<IconTarget />}
          title={t('tasks.firstCaseTitle')}
          reward="+100"
          done={user?.caseOpened === true}
          action={
            <Button size="sm" variant="secondary" onClick={() => navigate('/cases')}>
              {t('tasks.go')}
            </Button>
          }
        />
      </ul>

      <button type="button" className={styles.farmCard} onClick={() => navigate('/farm')} data-testid="farm-card">
        <span className={styles.farmCoin} aria-hidden>
          <IconToken size={34} />
        </span>
        <span className={styles.taskText}>
          <span className={styles.taskTitle}>{t('home.farmTitle')}</span>
          <span className={styles.taskSub}>{t('home.farmText')}</span>
        </span>
        <IconChevron size={20} className={styles.chev} />
      </button>

      <DailySheet open={dailyOpen} onClose={() => setDailyOpen(false)} />
    </main>
  );
}

/** The big balance: ru-RU digits with up to 2 decimals. */
function TokenAmountText({ value }: { value: number }) {
  return <span>{formatTokens(value)}</span>;
}
