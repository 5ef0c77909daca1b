import { errorRateBand } from "@fintech/core/rails/cost-bands";
import {
  BAND_FILL,
  BAND_TEXT,
  errorBarPercent,
  percentText,
  secondsText,
  timeBarPercent,
  TIME_BAR_SECONDS,
} from "./format";

/** A horizontal bar whose meaning is in the text beside it (the bar itself is decoration). */
function Bar({ percent, fill }: { percent: number; fill: string }) {
  return (
    <div aria-hidden="true" className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
      <div className={`h-full rounded-full ${fill}`} style={{ width: `${percent}%` }} />
    </div>
  );
}

/**
 * docs/product/payment-rails.md#colour-bands: the error-rate bar, green under 1 %, yellow under
 * 5 %, red otherwise (core's errorRateBand).
 */
export function ErrorRateBar({ errorRate }: { errorRate: number }) {
  const band = errorRateBand(errorRate);
  return (
    <div>
      <p className="flex justify-between gap-2">
        <span className="text-slate-600 dark:text-slate-300">Error rate</span>
        <span className={`font-semibold tabular-nums ${BAND_TEXT[band]}`}>{percentText(errorRate)}%</span>
      </p>
      <Bar percent={errorBarPercent(errorRate)} fill={BAND_FILL[band]} />
    </div>
  );
}

/** docs/product/payment-rails.md#colour-bands: the time bar, the average time out of 3 s. */
export function TimeBar({ seconds }: { seconds: number }) {
  return (
    <div>
      <p className="flex justify-between gap-2">
        <span className="text-slate-600 dark:text-slate-300">Time (of {TIME_BAR_SECONDS} s)</span>
        <span className="font-semibold tabular-nums text-slate-800 dark:text-slate-100">{secondsText(seconds)}</span>
      </p>
      <Bar percent={timeBarPercent(seconds)} fill="bg-indigo-600 dark:bg-indigo-400" />
    </div>
  );
}
