import type { ReactNode } from "react";
import type { ArtName } from "../marketingContent";

/**
 * The gallery "images": light inline SVG sketches of each screen (no rasters, no external URLs).
 * They follow the theme through Tailwind classes on the shapes.
 */

const W = 480;
const H = 300;

const panel = "fill-white dark:fill-slate-900";
const line = "stroke-slate-200 dark:stroke-slate-700";
const muted = "fill-slate-200 dark:fill-slate-700";
const faint = "fill-slate-100 dark:fill-slate-800";

function Frame({ label, title, children }: { label: string; title: string; children: ReactNode }) {
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={label}
      className="block h-full w-full"
      preserveAspectRatio="xMidYMid meet"
    >
      <rect x="8" y="8" width={W - 16} height={H - 16} rx="14" className={`${panel} ${line}`} strokeWidth="1.5" />
      <path d={`M8 44h${W - 16}`} className={line} strokeWidth="1.5" />
      <circle cx="30" cy="26" r="5" className="fill-rose-400" />
      <circle cx="48" cy="26" r="5" className="fill-amber-400" />
      <circle cx="66" cy="26" r="5" className="fill-emerald-400" />
      <text
        x="88"
        y="31"
        className="fill-slate-500 dark:fill-slate-400"
        fontSize="13"
        fontFamily="ui-monospace, monospace"
      >
        {title}
      </text>
      {children}
    </svg>
  );
}

function Bar({
  x,
  y,
  w,
  h = 10,
  className = muted,
}: {
  x: number;
  y: number;
  w: number;
  h?: number;
  className?: string;
}) {
  return <rect x={x} y={y} width={w} height={h} rx={h / 2} className={className} />;
}

function StreamArt() {
  const rows = [
    ["fill-emerald-500", 150],
    ["fill-sky-500", 190],
    ["fill-amber-500", 120],
    ["fill-emerald-500", 170],
    ["fill-violet-500", 140],
  ] as const;
  return (
    <Frame label="Sketch of the live event stream with a throughput chart" title="/grpc-demo">
      <rect x="380" y="16" width="70" height="20" rx="10" className="fill-emerald-500/15" />
      <circle cx="396" cy="26" r="4" className="fill-emerald-500" />
      <text x="406" y="30.5" fontSize="11" fontWeight="700" className="fill-emerald-600 dark:fill-emerald-400">
        LIVE
      </text>
      {rows.map(([tone, w], i) => (
        <g key={i}>
          <circle cx="40" cy={72 + i * 28} r="6" className={tone} />
          <Bar x={56} y={67 + i * 28} w={w} />
          <Bar x={56 + w + 10} y={67 + i * 28} w={40} className={faint} />
        </g>
      ))}
      <rect x="300" y="60" width="150" height="130" rx="10" className={faint} />
      <path
        d="M312 170 340 140l22 14 26-48 24 30 26-40"
        fill="none"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
        className="stroke-indigo-500"
      />
      <rect x="32" y="218" width="418" height="56" rx="10" className={faint} />
      {[0, 1, 2].map((i) => (
        <g key={i}>
          <Bar x={48 + i * 140} y={232} w={70} h={8} />
          <Bar x={48 + i * 140} y={248} w={100} h={12} className="fill-indigo-500/70" />
        </g>
      ))}
    </Frame>
  );
}

function GlobeArt() {
  const dots: [number, number][] = [
    [150, 110],
    [182, 96],
    [205, 132],
    [140, 160],
    [120, 128],
    [230, 170],
    [176, 190],
    [210, 96],
    [160, 138],
  ];
  return (
    <Frame label="Sketch of a globe with verified countries and document checks" title="/kyc">
      <circle cx="176" cy="150" r="86" className="fill-sky-500/10 stroke-sky-500" strokeWidth="2" />
      <ellipse cx="176" cy="150" rx="38" ry="86" fill="none" className="stroke-sky-500/60" strokeWidth="1.5" />
      <path d="M90 150h172M104 104h144M104 196h144" fill="none" className="stroke-sky-500/60" strokeWidth="1.5" />
      {dots.map(([x, y], i) => (
        <circle key={i} cx={x} cy={y} r="5" className="fill-emerald-500" />
      ))}
      {[0, 1, 2, 3, 4].map((i) => (
        <g key={i}>
          <rect x="296" y={66 + i * 40} width="154" height="30" rx="8" className={faint} />
          <rect
            x="306"
            y={74 + i * 40}
            width="20"
            height="14"
            rx="2"
            className={["fill-indigo-400", "fill-rose-400", "fill-amber-400", "fill-emerald-400", "fill-sky-400"][i]}
          />
          <Bar x={334} y={76 + i * 40} w={70} />
          <circle cx="432" cy={81 + i * 40} r="6" className={i < 4 ? "fill-emerald-500" : "fill-amber-500"} />
        </g>
      ))}
    </Frame>
  );
}

function RailsArt() {
  const rails = [
    ["ACH", 60],
    ["Wire", 240],
    ["Card", 150],
    ["SWIFT", 290],
    ["SEPA", 90],
    ["Crypto", 120],
  ] as const;
  return (
    <Frame label="Sketch of six payment rails compared by cost, the cheapest marked best" title="/payment-rails">
      {rails.map(([name, w], i) => (
        <g key={name}>
          <text x="36" y={78 + i * 34} fontSize="13" fontWeight="600" className="fill-slate-600 dark:fill-slate-300">
            {name}
          </text>
          <rect x="100" y={66 + i * 34} width="300" height="16" rx="8" className={faint} />
          <rect
            x="100"
            y={66 + i * 34}
            width={w}
            height="16"
            rx="8"
            className={i === 0 ? "fill-emerald-500" : "fill-indigo-500/70"}
          />
        </g>
      ))}
      <rect x="366" y="62" width="78" height="24" rx="12" className="fill-emerald-500/15" />
      <text x="378" y="78.5" fontSize="11" fontWeight="700" className="fill-emerald-600 dark:fill-emerald-400">
        BEST
      </text>
    </Frame>
  );
}

function LedgerArt() {
  return (
    <Frame label="Sketch of a balanced double-entry journal with account balances" title="/ledger">
      {[0, 1, 2].map((i) => (
        <g key={i}>
          <rect x={32 + i * 142} y="60" width="130" height="64" rx="10" className={faint} />
          <Bar x={46 + i * 142} y={74} w={60} h={8} />
          <Bar
            x={46 + i * 142}
            y={94}
            w={90}
            h={14}
            className={["fill-indigo-500/80", "fill-emerald-500/80", "fill-sky-500/80"][i]}
          />
        </g>
      ))}
      <rect x="32" y="140" width="414" height="132" rx="10" className={faint} />
      <text x="48" y="162" fontSize="11" fontWeight="700" className="fill-slate-500 dark:fill-slate-400">
        ACCOUNT
      </text>
      <text x="300" y="162" fontSize="11" fontWeight="700" className="fill-slate-500 dark:fill-slate-400">
        DEBIT
      </text>
      <text x="380" y="162" fontSize="11" fontWeight="700" className="fill-slate-500 dark:fill-slate-400">
        CREDIT
      </text>
      {[0, 1, 2, 3].map((i) => (
        <g key={i}>
          <Bar x={48} y={176 + i * 22} w={120 + ((i * 37) % 60)} h={9} />
          {i % 2 === 0 ? (
            <Bar x={300} y={176 + i * 22} w={48} h={9} className="fill-indigo-500/70" />
          ) : (
            <Bar x={380} y={176 + i * 22} w={48} h={9} className="fill-emerald-500/70" />
          )}
        </g>
      ))}
    </Frame>
  );
}

function ReviewArt() {
  const tones = ["fill-emerald-500", "fill-amber-500", "fill-sky-500", "fill-rose-500"];
  return (
    <Frame label="Sketch of the KYC review queue with statuses and risk scores" title="/kyc/dashboard">
      {[0, 1, 2, 3].map((i) => (
        <g key={i}>
          <rect x={32 + i * 104} y="58" width="94" height="52" rx="10" className={faint} />
          <Bar x={44 + i * 104} y={70} w={50} h={8} />
          <Bar x={44 + i * 104} y={86} w={34} h={14} className={tones[i]} />
        </g>
      ))}
      {[0, 1, 2, 3, 4].map((i) => (
        <g key={i}>
          <rect x="32" y={124 + i * 30} width="414" height="24" rx="6" className={i % 2 ? "fill-transparent" : faint} />
          <circle cx="48" cy={136 + i * 30} r="7" className="fill-indigo-400/60" />
          <Bar x={64} y={131 + i * 30} w={110} h={9} />
          <rect x="250" y={129 + i * 30} width="64" height="14" rx="7" className={tones[(i + 1) % 4]} opacity="0.85" />
          <Bar x={340} y={131 + i * 30} w={30 + ((i * 23) % 60)} h={9} className="fill-slate-300 dark:fill-slate-600" />
        </g>
      ))}
    </Frame>
  );
}

function ConsoleArt() {
  const code = [
    [
      ["fill-violet-500", 40],
      ["fill-slate-400", 120],
    ],
    [
      ["fill-sky-500", 70],
      ["fill-amber-500", 90],
      ["fill-slate-400", 40],
    ],
    [
      ["fill-slate-400", 30],
      ["fill-emerald-500", 140],
    ],
    [
      ["fill-slate-400", 30],
      ["fill-emerald-500", 100],
      ["fill-amber-500", 50],
    ],
    [["fill-sky-500", 50]],
  ] as const;
  return (
    <Frame label="Sketch of the API explorer with endpoints and a curl sample" title="/developers/api-explorer">
      {[
        ["POST", "fill-emerald-500"],
        ["GET", "fill-sky-500"],
        ["GET", "fill-sky-500"],
        ["PUT", "fill-amber-500"],
        ["POST", "fill-emerald-500"],
      ].map(([method, tone], i) => (
        <g key={i}>
          <rect
            x="32"
            y={60 + i * 40}
            width="150"
            height="30"
            rx="8"
            className={i === 1 ? "fill-indigo-500/15" : faint}
          />
          <rect x="40" y={68 + i * 40} width="38" height="14" rx="4" className={tone} />
          <text x="59" y={79 + i * 40} fontSize="9" fontWeight="700" textAnchor="middle" className="fill-white">
            {method}
          </text>
          <Bar x={86} y={70 + i * 40} w={80} h={9} />
        </g>
      ))}
      <rect x="198" y="60" width="250" height="190" rx="10" className="fill-slate-900 dark:fill-slate-950" />
      {code.map((parts, row) => {
        let x = 214;
        return (
          <g key={row}>
            {parts.map(([tone, w], j) => {
              const bar = <rect key={j} x={x} y={78 + row * 26} width={w} height="9" rx="4.5" className={tone} />;
              x += w + 8;
              return bar;
            })}
          </g>
        );
      })}
      <text x="214" y="232" fontSize="11" fontFamily="ui-monospace, monospace" className="fill-emerald-400">
        $ curl -H "Authorization: Bearer …"
      </text>
    </Frame>
  );
}

const ART: Record<ArtName, () => ReactNode> = {
  stream: StreamArt,
  globe: GlobeArt,
  rails: RailsArt,
  ledger: LedgerArt,
  review: ReviewArt,
  console: ConsoleArt,
};

export function SlideArt({ name }: { name: ArtName }) {
  const Art = ART[name];
  return <Art />;
}
