import { useState } from "react";
import { errorMessage } from "../api/errors";
import { useHealth } from "../api/hooks";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { METRICS_WINDOWS, STATUS_MESSAGES } from "../status/constants";
import { useServiceChecks, useSpinFor, useStatusMetrics } from "../status/hooks";
import { BellIcon, RefreshIcon } from "../status/icons";
import { PerformancePanel } from "../status/PerformancePanel";
import { ServiceCards } from "../status/ServiceCards";
import { StatusBanner } from "../status/StatusBanner";
import { TopologyDiagram } from "../status/TopologyDiagram";

/** Inert until notifications exist: focusable, announced as unavailable, with a tooltip saying so. */
function SubscribeButton() {
  return (
    <span className="group relative inline-flex">
      <button
        type="button"
        aria-disabled="true"
        aria-describedby="subscribe-tooltip"
        data-testid="subscribe"
        onClick={(event) => event.preventDefault()}
        className={`${secondaryButtonClass} cursor-not-allowed opacity-70 hover:bg-white dark:hover:bg-slate-900`}
      >
        <BellIcon width="16" height="16" />
        Subscribe
      </button>
      <span
        id="subscribe-tooltip"
        role="tooltip"
        className="pointer-events-none absolute right-0 top-full z-10 mt-2 w-max max-w-56 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium text-white opacity-0 shadow-lg transition-opacity group-focus-within:opacity-100 group-hover:opacity-100 dark:bg-slate-100 dark:text-slate-900"
      >
        {STATUS_MESSAGES.subscribeUnavailable}
      </span>
    </span>
  );
}

/** docs/product/status.md#status-page: the system status page, on real checks and real request figures. */
export default function StatusPage() {
  const health = useHealth();
  const services = useServiceChecks();
  const [windowSeconds, setWindowSeconds] = useState<number>(METRICS_WINDOWS[0].seconds);
  const metrics = useStatusMetrics(windowSeconds);
  const [spinning, spin] = useSpinFor();

  const refresh = () => {
    spin();
    health.refresh();
    void services.refetch();
    void metrics.refetch();
  };

  const servicesError = services.isError ? errorMessage(services.error, STATUS_MESSAGES.servicesFailed) : null;
  const metricsError = metrics.isError ? errorMessage(metrics.error, STATUS_MESSAGES.metricsFailed) : null;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            System Status
          </h1>
          <p className="mt-2 text-slate-600 dark:text-slate-300">
            Live health of the platform, from real checks and real API traffic.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={refresh}
            className={primaryButtonClass}
            data-testid="refresh"
            data-spinning={spinning}
            aria-busy={spinning}
          >
            <RefreshIcon
              width="16"
              height="16"
              className={spinning ? "motion-safe:animate-spin" : undefined}
              data-testid="refresh-icon"
            />
            Refresh
          </button>
          <SubscribeButton />
        </div>
      </header>

      <StatusBanner view={health} />
      <ServiceCards services={services.data?.services} loading={services.isPending} error={servicesError} />
      <PerformancePanel
        report={metrics.data}
        error={metricsError}
        windowSeconds={windowSeconds}
        onWindowChange={setWindowSeconds}
      />
      <TopologyDiagram
        services={services.data?.services}
        requestsPerSecond={metrics.data?.requests_per_second ?? null}
      />
    </div>
  );
}
