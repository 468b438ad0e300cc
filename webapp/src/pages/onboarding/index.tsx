import { useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';

import { MainAction, Skeleton, toast } from '../../components/ui';
import { useGates } from '../../features/gates';
import { addTexts, useT } from '../../i18n';
import { removeStaticSlide } from '../../lib/static-slide';
import { haptic, openLink } from '../../lib/telegram';
import styles from './onboarding.module.css';
import { CaseArt, CoinsArt, SkinArt } from './slides';
import adultEn from './i18n/en.json';
import adultRu from './i18n/ru.json';

// The screen's texts (slides, terms, 18+) load with it, not in the start-up bundle.
addTexts({ ru: adultRu, en: adultEn });

/** Spec section 9: autoplay every 4000 ms, not stopped by interaction. */
export const AUTOPLAY_MS = 4000;

const slides: ReadonlyArray<{ key: string; Art: ComponentType }> = [
  { key: 'slide1', Art: CaseArt },
  { key: 'slide2', Art: SkinArt },
  { key: 'slide3', Art: CoinsArt },
];

/** Onboarding (spec section 2): loading, three-slide carousel, terms checkbox, start. */
export function OnboardingPage() {
  const t = useT();
  const config = useGates((s) => s.config);
  // The shell answers the agreement before this screen is drawn; only an unknown one is asked.
  const [loading, setLoading] = useState(() => useGates.getState().agreement === 'unknown');
  const [index, setIndex] = useState(0);
  const termsBefore = useGates((s) => s.termsAgreedBefore);
  // A first open draws this screen before sign-in and the agreement check end: start waits.
  const provisional = useGates((s) => s.agreementProvisional);
  const [accepted, setAccepted] = useState(false);
  const [adult, setAdult] = useState(false);
  const [underage, setUnderage] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const touchX = useRef<number | null>(null);

  // index.html's static copy of the first slide (a first visit) goes in the commit that draws
  // this screen: the real slide takes its place in the same frame.
  useLayoutEffect(removeStaticSlide, []);

  // Spec section 7: the agreement is checked on onboarding load; agreed players are sent on.
  useEffect(() => {
    if (!loading) return;
    void useGates
      .getState()
      .checkAgreement()
      .finally(() => setLoading(false));
  }, []); // once, on mount

  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => (i + 1) % slides.length), AUTOPLAY_MS);
    return () => clearInterval(timer);
  }, []);

  const ready = (accepted || termsBefore) && adult;
  const start = async () => {
    if (!ready || submitting || provisional) return;
    setSubmitting(true);
    const ok = await useGates.getState().acceptAgreement();
    if (ok) {
      haptic.success();
      // The root gates now open the app (or the remembered deep link).
    } else {
      haptic.error();
      toast.error(t('onboarding.confirmError'));
      setSubmitting(false);
    }
  };

  if (loading) {
    return (
      <main className={styles.page} data-testid="onboarding-loading" aria-busy="true">
        <Skeleton height={220} radius={20} />
        <Skeleton height={24} width="60%" />
        <Skeleton height={16} width="85%" />
      </main>
    );
  }

  if (underage) {
    return (
      <main className={styles.page} data-testid="onboarding-underage">
        <section className={styles.slide}>
          <h1 className={styles.title}>{t('adult.notForYouTitle')}</h1>
          <p className={styles.text}>{t('adult.notForYouText')}</p>
        </section>
        <div className={styles.bottom}>
          <button type="button" className={styles.under} onClick={() => setUnderage(false)} data-testid="adult-back">
            {t('adult.back')}
          </button>
        </div>
      </main>
    );
  }

  return (
    <main className={styles.page} data-testid="page-onboarding">
      <div
        className={styles.viewport}
        onTouchStart={(e) => {
          touchX.current = e.touches[0]?.clientX ?? null;
        }}
        onTouchEnd={(e) => {
          const start = touchX.current;
          const end = e.changedTouches[0]?.clientX;
          touchX.current = null;
          if (start === null || end === undefined || Math.abs(end - start) < 40) return;
          setIndex((i) => (end < start ? Math.min(slides.length - 1, i + 1) : Math.max(0, i - 1)));
        }}
      >
        <div className={styles.track} style={{ transform: `translateX(calc(${-index} * (100% + 20px)))` }}>
          {slides.map(({ key, Art }, i) => (
            <section key={key} className={styles.slide} aria-hidden={i !== index} data-slide={i}>
              <div className={styles.art}>
                <Art />
              </div>
              <h1 className={styles.title}>{t(`onboarding.${key}Title`)}</h1>
              <p className={styles.text}>{t(`onboarding.${key}Text`)}</p>
            </section>
          ))}
        </div>
      </div>
      <div className={styles.dots} role="tablist">
        {slides.map((s, i) => (
          <button
            key={s.key}
            type="button"
            role="tab"
            aria-selected={i === index}
            aria-label={t('onboarding.slideLabel', { n: i + 1 })}
            className={`${styles.dot} ${i === index ? styles.dotActive : ''}`}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>

      <div className={styles.bottom}>
        {termsBefore && <p className={styles.text}>{t('adult.again')}</p>}
        {!termsBefore && (
          <label className={styles.terms}>
            <input
              type="checkbox"
              checked={accepted}
              onChange={(e) => {
                haptic.selection();
                setAccepted(e.target.checked);
              }}
              data-testid="terms-checkbox"
            />
            <span>
              {t('onboarding.agreePrefix')}{' '}
              <a
                href={config?.termsUrl ?? '#'}
                onClick={(e) => {
                  e.preventDefault();
                  if (config?.termsUrl) openLink(config.termsUrl);
                }}
              >
                {t('onboarding.terms')}
              </a>{' '}
              {t('onboarding.and')}{' '}
              <a
                href={config?.privacyUrl ?? '#'}
                onClick={(e) => {
                  e.preventDefault();
                  if (config?.privacyUrl) openLink(config.privacyUrl);
                }}
              >
                {t('onboarding.privacy')}
              </a>
            </span>
          </label>
        )}
        <label className={styles.terms}>
          <input
            type="checkbox"
            checked={adult}
            onChange={(e) => {
              haptic.selection();
              setAdult(e.target.checked);
            }}
            data-testid="adult-checkbox"
          />
          <span>{t('adult.confirm')}</span>
        </label>
        <button
          type="button"
          className={styles.under}
          onClick={() => {
            haptic.error();
            setUnderage(true);
          }}
          data-testid="adult-no"
        >
          {t('adult.under')}
        </button>
        <MainAction testId="onboarding-start" text={t('onboarding.start')} onClick={() => void start()} enabled={ready && !provisional} loading={submitting} />
      </div>
    </main>
  );
}
