// GitHub through @octokit/rest: triage the wrong-totals bug, review the fix's diff and merge it.
import { Octokit } from "@octokit/rest";

const github = new Octokit({ auth: process.env.GITHUB_TOKEN, baseUrl: process.env.GITHUB_API_URL });
const repo = { owner: "acme", repo: "orders" };

const { data: orders } = await github.rest.repos.get(repo);
const { data: issues } = await github.rest.issues.listForRepo({ ...repo, state: "open" });
const { data: pulls } = await github.rest.pulls.list({ ...repo, state: "open" });
const bug = issues.find((issue) => issue.title.startsWith("Wrong order totals"));
const fix = pulls.find((pull) => pull.head.ref === "fix-totals-cache");
const { data: diff } = await github.rest.pulls.get({ ...repo, pull_number: fix.number, mediaType: { format: "diff" } });
const { data: comment } = await github.rest.issues.createComment({
  ...repo,
  issue_number: bug.number,
  body: `The fix is in #${fix.number}: the totals cache is keyed by order id.`,
});
const { data: labels } = await github.rest.issues.addLabels({ ...repo, issue_number: fix.number, labels: ["bug"] });
const { data: merged } = await github.rest.pulls.merge({ ...repo, pull_number: fix.number, merge_method: "squash" });
const { data: after } = await github.rest.pulls.get({ ...repo, pull_number: fix.number });
const everything = await github.paginate(github.rest.issues.listForRepo, { ...repo, state: "all", per_page: 2 });
const { data: comments } = await github.rest.issues.listComments({ ...repo, issue_number: bug.number });

console.log(JSON.stringify({
  repo: [orders.full_name, orders.default_branch, orders.private],
  issues: issues.map((issue) => [issue.number, issue.title, issue.labels.map((label) => label.name), Boolean(issue.pull_request)]),
  pulls: pulls.map((pull) => [pull.number, pull.title, pull.head.ref, pull.base.ref, pull.user.login]),
  diff_files: [...diff.matchAll(/^diff --git a\/(\S+) /gm)].map((match) => match[1]),
  diff_starts: diff.split("\n")[0],
  comment: [comment.user.login, comment.body, comment.issue_url.endsWith(`/repos/acme/orders/issues/${bug.number}`)],
  labels: labels.map((label) => label.name),
  merged: [merged.merged, merged.message, merged.sha === after.merge_commit_sha],
  after: [after.state, after.merged, after.merged_by.login],
  everything: everything.map((issue) => [issue.number, issue.state]),
  comments: comments.map((each) => [each.user.login, each.body]),
}, null, 1));
