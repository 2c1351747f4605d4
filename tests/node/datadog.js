// Datadog through @datadog/datadog-api-client: look at the batch disk monitor, read the disk metric, silence
// the monitor on batch-1 for the reindex with a downtime, and declare an incident.
import { client, v1, v2 } from "@datadog/datadog-api-client";
import { UnparsedObject } from "@datadog/datadog-api-client/dist/packages/datadog-api-client-common/util.js";

const url = new URL(process.env.DATADOG_API_URL);
const configuration = client.createConfiguration({
  authMethods: { apiKeyAuth: process.env.DD_API_KEY, appKeyAuth: process.env.DD_APP_KEY },
  serverIndex: 1,
});
configuration.setServerVariables({ protocol: url.protocol.replace(":", ""), name: url.host + url.pathname });
configuration.unstableOperations["v2.createIncident"] = true;

// The client reads an answer it cannot match to its models (an unknown enum value, no oneOf fitting) into an
// UnparsedObject rather than failing: where any is, the answer was not what Datadog sends.
function unparsed(value, path) {
  if (value === null || typeof value !== "object") return [];
  if (value instanceof UnparsedObject) return [path];
  return Object.entries(value).flatMap(([key, inner]) => (key === "additionalProperties" ? [] : unparsed(inner, `${path}.${key}`)));
}

// The world's time is its own, not the machine's: Datadog's Date header tells it.
const validated = await fetch(`${process.env.DATADOG_API_URL}/api/v1/validate`, {
  headers: { "DD-API-KEY": process.env.DD_API_KEY },
});
const now = Math.floor(Date.parse(validated.headers.get("date")) / 1000);

const monitors = await new v1.MonitorsApi(configuration).listMonitors({ monitorTags: "team:orders" });
const disk = monitors.find((monitor) => monitor.name === "Disk usage high on batch hosts");
const groups = await new v1.MonitorsApi(configuration).searchMonitorGroups({ query: `id:${disk.id}` });
const metrics = await new v1.MetricsApi(configuration).queryMetrics({
  from: now - 3600,
  to: now,
  query: "max:system.disk.in_use{role:batch} by {host}",
});
const downtime = await new v2.DowntimesApi(configuration).createDowntime({
  body: {
    data: {
      type: "downtime",
      attributes: {
        scope: "host:batch-1",
        message: "Planned reindex on batch-1",
        monitorIdentifier: { monitorId: disk.id },
        schedule: { start: new Date(now * 1000), end: new Date((now + 7200) * 1000) },
      },
    },
  },
});
const incident = await new v2.IncidentsApi(configuration).createIncident({
  body: { data: { type: "incidents", attributes: { title: "Batch disks filling during the reindex", customerImpacted: false } } },
});

console.log(JSON.stringify({
  unparsed: unparsed({ monitors, groups, metrics, downtime, incident }, "answers"),
  valid: (await validated.json()).valid,
  monitors: monitors.map((monitor) => [monitor.name, monitor.type, monitor.overallState]),
  groups: groups.groups.map((group) => [group.group, group.status]),
  series: metrics.series.map((series) => [series.scope, series.interval, series.pointlist.length, series.unit[0].name]),
  downtime: [
    downtime.data.attributes.scope,
    downtime.data.attributes.message,
    downtime.data.attributes.monitorIdentifier.monitorId === disk.id,
    downtime.data.attributes.status,
    (downtime.data.attributes.schedule.end - downtime.data.attributes.schedule.start) / 1000,
  ],
  incident: [incident.data.type, incident.data.attributes.title, incident.data.attributes.customerImpacted],
}, null, 1));
