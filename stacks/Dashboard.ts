import { Stack } from "aws-cdk-lib";
import { Dashboard as CloudWatchDashboard, GraphWidget, TextWidget, type IWidget } from "aws-cdk-lib/aws-cloudwatch";
import type { StackContext } from "sst/constructs";
import { ALARM_PERIOD_MINUTES, watchesIn, type Watch } from "./alarms";

/** Graphs per row (CloudWatch's grid is 24 units wide). */
const GRAPHS_PER_ROW = 3;
const GRAPH_WIDTH = 24 / GRAPHS_PER_ROW;
const GRAPH_HEIGHT = 6;

/** One graph of everything a Watch alarms on, with each alarm's threshold drawn across it. */
export function watchGraph(watch: Watch): GraphWidget {
  const side = (axis: "left" | "right") => watch.metrics.filter((entry) => entry.axis === axis);
  return new GraphWidget({
    title: watch.title,
    width: GRAPH_WIDTH,
    height: GRAPH_HEIGHT,
    left: side("left").map(({ metric }) => metric),
    right: side("right").map(({ metric }) => metric),
    leftAnnotations: side("left").flatMap(({ alarm }) => (alarm ? [alarm.toAnnotation()] : [])),
    rightAnnotations: side("right").flatMap(({ alarm }) => (alarm ? [alarm.toAnnotation()] : [])),
  });
}

/**
 * The stage's one CloudWatch dashboard, the last stack: a graph for every Watch the other
 * stacks made (stacks/alarms.ts), grouped under each stack's name, so whatever gains an alarm
 * also appears here without being listed twice.
 */
export function Dashboard({ stack, app }: StackContext) {
  const byStack = new Map<string, Watch[]>();
  for (const watch of watchesIn(app)) {
    const name = Stack.of(watch).node.id.replace(app.logicalPrefixedName(""), "");
    byStack.set(name, [...(byStack.get(name) ?? []), watch]);
  }
  const rows: IWidget[][] = [
    [
      new TextWidget({
        markdown: `# ${app.name} ${app.stage}\nEvery alarm of the stage, ${ALARM_PERIOD_MINUTES}-minute periods; dashed lines are alarm thresholds.`,
        width: 24,
        height: 2,
      }),
    ],
  ];
  for (const [name, watches] of byStack) {
    rows.push([new TextWidget({ markdown: `## ${name}`, width: 24, height: 1 })]);
    const graphs = watches.map(watchGraph);
    for (let start = 0; start < graphs.length; start += GRAPHS_PER_ROW)
      rows.push(graphs.slice(start, start + GRAPHS_PER_ROW));
  }
  const dashboard = new CloudWatchDashboard(stack, "Dashboard", {
    dashboardName: app.logicalPrefixedName("overview"),
    widgets: rows,
  });

  stack.addOutputs({ DashboardName: dashboard.dashboardName });

  return { dashboard };
}
