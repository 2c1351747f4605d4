"""Keeps the facts of real recorded responses, one per operation soundstage implements, for the comparison
in tests/services/test_recorded.py.

    python scripts/extract_recorded.py --pygithub GITDIR --datadog GITDIR --slack GITDIR --pagerduty FILE \
        --gcalcli GITDIR --google-calendar GITDIR --homeassistant-gmail-profile FILE \
        --gmail-api-parse-message GITDIR --gmail-api-parse-message-ts GITDIR

GITDIR is a git directory (a bare clone is enough; files are read from its HEAD, or from the commit pinned below)
of PyGithub/PyGithub, DataDog/datadog-api-client-python, slackapi/java-slack-sdk, insanum/gcalcli,
northworld/google_calendar, EmilTholin/gmail-api-parse-message and larsklingsten/gmail-api-parse-message-ts;
FILE is PagerDuty's OpenAPI description (reference/REST/openapiv3.json of PagerDuty/api-schema, the file
tests/specs/SOURCES.md names), and for Gmail the file HOMEASSISTANT_GMAIL_PROFILE names (home-assistant/core is
too large a repository to fetch whole; the file's commit and checksum are checked as PagerDuty's are).
Each is optional: the services of a source not given keep their data files as they are. Which recorded
response stands for which operation is the table below, chosen by hand, never guessed. For each one this
writes the key paths and value formats of the body (tests/services/keypaths.py), not the body itself, into
tests/services/recorded/<service>.json, and rewrites tests/services/recorded/SOURCES.md. Excluded key paths
(EXCLUSIONS below, each with its reason) are left out of the facts and the exclusions written along, so that
the test leaves out the same; the coverage floors already in the data files are kept (the lead raises them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.services.keypaths import excluded, key_paths

OUT = ROOT / "tests" / "services" / "recorded"


@dataclass(frozen=True)
class Origin:
    repo: str
    license: str
    what: str


ORIGINS = {
    "pygithub": Origin("PyGithub/PyGithub", "LGPL-3.0", "replay data of PyGithub's tests (tests/ReplayData)"),
    "datadog": Origin(
        "DataDog/datadog-api-client-python", "Apache-2.0", "VCR cassettes of the client's tests (tests/v*/cassettes)"
    ),
    "slack": Origin(
        "slackapi/java-slack-sdk",
        "MIT",
        "Slack's sample responses (json-logs/samples/api), which merge every field ever seen with placeholder values",
    ),
    "pagerduty": Origin(
        "PagerDuty/api-schema",
        "none stated (the repository has no license file; only facts are kept)",
        "the response examples of the REST API description (reference/REST/openapiv3.json)",
    ),
    "gcalcli": Origin(
        "insanum/gcalcli",
        "MIT",
        "a Google Calendar API answer recorded for the client's tests (tests/data), its etags and tokens replaced",
    ),
    "google_calendar": Origin(
        "northworld/google_calendar",
        "MIT",
        "Google Calendar API answers kept as the Ruby client's test mocks (test/mocks), names, ids and links replaced",
    ),
    "homeassistant": Origin(
        "home-assistant/core",
        "Apache-2.0",
        "a Gmail API answer kept as a fixture of the Google Mail integration's tests"
        " (tests/components/google_mail/fixtures), its address replaced",
    ),
    "gmail_parse": Origin(
        "EmilTholin/gmail-api-parse-message",
        "MIT",
        "Gmail API answers kept whole as the parser's test messages (test/messages): probably real (Gmail's own"
        " ids, attachment tokens and Received headers of its author's mailbox), with his address replaced",
    ),
    "gmail_parse_ts": Origin(
        "larsklingsten/gmail-api-parse-message-ts",
        "MIT",
        "Gmail API answers recorded by the JavaScript client for the parser's tests, real: each with its status,"
        " Google's HTTP headers and its body as received (src/test/test.parse-gmail-api.const.ts)",
    ),
}
# Gmail's recorded answer (users.getProfile): one file of Home Assistant, at this commit, with this checksum.
HOMEASSISTANT_GMAIL_PROFILE = "tests/components/google_mail/fixtures/get_profile.json"
HOMEASSISTANT_COMMIT = "138d07ff2ea8fa640d3c1ff15f6a576fcc1a9744"
HOMEASSISTANT_SHA256 = "d4cdd5934d8f98ebadea03b690d8023f133129565f263297e606b8cdfbc50ef7"
# EmilTholin/gmail-api-parse-message keeps its test messages only in its history, not at its HEAD.
GMAIL_PARSE_COMMIT = "760a10d832f0d29280d4ba79c9bd0ff1c1cc711c"
# The recorded answer of larsklingsten/gmail-api-parse-message-ts that messages.get stands for: the message with a
# text part and an attached file, as the body text received (`body`), not the client's parsed copy (`result`).
GMAIL_TS_CONST = "src/test/test.parse-gmail-api.const.ts"
GMAIL_TS_EXPORT = "GMAIL_RESP_UBS_BUGFIX"
# Gmail's recorded answers, by operation: the source (an option of this script) and its file.
GMAIL = {
    "GET /gmail/v1/users/{userId}/profile": ("homeassistant", HOMEASSISTANT_GMAIL_PROFILE),
    "GET /gmail/v1/users/{userId}/messages/{id}": ("gmail_parse_ts", GMAIL_TS_CONST),
    "GET /gmail/v1/users/{userId}/drafts/{id}": ("gmail_parse", "test/messages/multipartAlternativeDraft.js"),
}
# Google Calendar's recorded answers, by operation: the source (an option of this script) and its file.
CALENDAR = {
    "GET /calendar/v3/users/me/calendarList": ("gcalcli", "tests/data/cal_list.json"),
    "GET /calendar/v3/calendars/{calendarId}": ("google_calendar", "test/mocks/get_calendar.json"),
    "GET /calendar/v3/calendars/{calendarId}/events": ("google_calendar", "test/mocks/events.json"),
    "GET /calendar/v3/calendars/{calendarId}/events/{eventId}": ("google_calendar", "test/mocks/find_event_by_id.json"),
    "POST /calendar/v3/calendars/{calendarId}/events": ("google_calendar", "test/mocks/create_event.json"),
    "POST /calendar/v3/freeBusy": ("google_calendar", "test/mocks/freebusy_query.json"),
}
# The PagerDuty description is the one tests/specs was cut from; its commit and checksum are those listed there.
PAGERDUTY_COMMIT = "91a06fb3c64b0ab2b2bd6c485d12b327dfb55c18"
PAGERDUTY_SHA256 = "b2e80f8b83b170f29702e96a69adf230702b4ec43dddab7e348a2985c707ef35"


@dataclass(frozen=True)
class Replay:
    """The first 2xx record of a PyGithub replay file (tests/ReplayData/<name>.txt) with the operation's method
    and this path (the query string left out)."""

    name: str
    path: str


@dataclass(frozen=True)
class Cassette:
    """The first 2xx interaction of a datadog-api-client cassette with the operation's method and this path."""

    file: str
    path: str


V1 = "tests/v1/cassettes/test_scenarios/"
V2 = "tests/v2/cassettes/test_scenarios/"
PG = "/repos/PyGithub/PyGithub"

# operation -> the recorded response that stands for it, for GitHub and Datadog. (Slack's stand-in for a method is its
# sample, json-logs/samples/api/<method>.json; PagerDuty's for an operation is the first example of its 2xx answer in
# the description.) Operations missing here have none that holds a JSON body: the recordings have no such call (git ref
# reads and writes, re-running a workflow, Datadog's v1 event list and host mutes) or the call answers 204 (deleting a
# comment, labels or a lock, locking, reading whether a pull request is merged, cancelling a downtime).
TABLE: dict[str, dict[str, Replay | Cassette]] = {
    "github": {
        "DELETE /repos/{owner}/{repo}/contents/{path}": Replay(
            "Repository.testDeleteFile", f"{PG}/contents/doc/testCreateUpdateDeleteFile.md"
        ),
        "DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees": Replay(
            "Issue.testAddAndRemoveAssignees", f"{PG}/issues/28/assignees"
        ),
        "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}": Replay(
            "Issue.testAddAndRemoveLabels", f"{PG}/issues/28/labels/Bug"
        ),
        "GET /orgs/{org}/repos": Replay("Organization.testGetRepos", "/orgs/BeaverSoftware/repos"),
        "GET /rate_limit": Replay("RateLimiting.testGetRateLimit", "/rate_limit"),
        "GET /repos/{owner}/{repo}": Replay("Issue.setUp", PG),
        "GET /repos/{owner}/{repo}/actions/runs": Replay(
            "PullRequest1682.test_no_parameters", "/repos/ReDASers/Phishing-Detection/actions/runs"
        ),
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}": Replay(
            "Artifact.testGetArtifactsFromWorkflow",
            "/repos/transmission-web-control/transmission-web-control/actions/runs/5138169628",
        ),
        "GET /repos/{owner}/{repo}/branches/{branch}": Replay(
            "Workflow.testGetRunsWithObjects", f"{PG}/branches/master"
        ),
        "GET /repos/{owner}/{repo}/commits": Replay("Repository.testGetCommits", f"{PG}/commits"),
        "GET /repos/{owner}/{repo}/commits/{ref}": Replay(
            "Commit.setUp", "/repos/jacquev6/PyGithub/commits/1292bf0e22c796e91cc3d6e24b544aece8c21f2a"
        ),
        "GET /repos/{owner}/{repo}/commits/{ref}/check-runs": Replay(
            "CheckRun.testGetCheckRunsForRefFilterByFilter",
            f"{PG}/commits/10a7135a04f71e6101f8b013aded8a662d08fd1f/check-runs",
        ),
        "GET /repos/{owner}/{repo}/commits/{ref}/status": Replay(
            "CommitCombinedStatus.setUp",
            "/repos/edx/edx-platform/commits/74e70119a23fa3ffb3db19d4590eccfebd72b659/status",
        ),
        "GET /repos/{owner}/{repo}/compare/{basehead}": Replay("Repository.testCompare", f"{PG}/compare/v0.6...v0.7"),
        "GET /repos/{owner}/{repo}/contents/{path}": Replay(
            "Repository.testGetContents", f"{PG}/contents/doc/ReferenceOfClasses.md"
        ),
        "GET /repos/{owner}/{repo}/deployments": Replay("Repository.testGetDeployments", f"{PG}/deployments"),
        "GET /repos/{owner}/{repo}/deployments/{deployment_id}": Replay(
            "Deployment.setUp", "/repos/jacquev6/PyGithub/deployments/263877258"
        ),
        "GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses": Replay(
            "DeploymentStatus.testGetStatuses", "/repos/jacquev6/PyGithub/deployments/263877258/statuses"
        ),
        "GET /repos/{owner}/{repo}/git/blobs/{file_sha}": Replay(
            "GitBlob.setUp", "/repos/jacquev6/PyGithub/git/blobs/53bce9fa919b4544e67275089b3ec5b44be20667"
        ),
        "GET /repos/{owner}/{repo}/git/commits/{commit_sha}": Replay(
            "GitCommit.setUp", f"{PG}/git/commits/3d84a47a88f6757514cb3ee91b829f53ba09e7e0"
        ),
        "GET /repos/{owner}/{repo}/git/matching-refs/{ref}": Replay(
            "Repository.testGetMatchingRefs", "/repos/FlorentClarret/PyGithub/git/matching-refs/tags"
        ),
        "GET /repos/{owner}/{repo}/git/refs": Replay("Repository.testGetGitRefs", f"{PG}/git/refs"),
        "GET /repos/{owner}/{repo}/git/trees/{tree_sha}": Replay(
            "Repository.testGetGitTreeWithRecursive", f"{PG}/git/trees/f492784d8ca837779650d1fb406a1a3587a764ad"
        ),
        "GET /repos/{owner}/{repo}/issues": Replay("GraphQl.testPaginationAndRestIntegration", f"{PG}/issues"),
        "GET /repos/{owner}/{repo}/issues/comments/{comment_id}": Replay(
            "IssueComment.setUp", f"{PG}/issues/comments/20227753"
        ),
        "GET /repos/{owner}/{repo}/issues/{issue_number}": Replay("Issue.setUp", f"{PG}/issues/28"),
        "GET /repos/{owner}/{repo}/issues/{issue_number}/comments": Replay(
            "PaginatedList.testCustomPerPageReversedIterationSinglePage", f"{PG}/issues/3372/comments"
        ),
        "GET /repos/{owner}/{repo}/issues/{issue_number}/labels": Replay(
            "Issue.testAddAndRemoveLabels", f"{PG}/issues/28/labels"
        ),
        "GET /repos/{owner}/{repo}/labels": Replay("Repository.testGetLabels", f"{PG}/labels"),
        "GET /repos/{owner}/{repo}/pulls": Replay("PullRequest1375.setUp", "/repos/rsn491/PyGithub/pulls"),
        "GET /repos/{owner}/{repo}/pulls/{pull_number}": Replay(
            "CompletableGithubObjectWithPaginatedProperty.testPullCommitsFiles", f"{PG}/pulls/3370"
        ),
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments": Replay(
            "PullRequest.testGetReviewComments", f"{PG}/pulls/31/comments"
        ),
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/commits": Replay(
            "PullRequest.testGetCommits", f"{PG}/pulls/31/commits"
        ),
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/files": Replay(
            "PullRequest.testGetFiles", f"{PG}/pulls/31/files"
        ),
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews": Replay(
            "PullRequestReview.testAttributes", f"{PG}/pulls/538/reviews"
        ),
        "GET /repos/{owner}/{repo}/releases": Replay("ReleaseAsset.setUp", "/repos/edhollandAL/PyGithub/releases"),
        "GET /repos/{owner}/{repo}/releases/latest": Replay(
            "GitRelease.testGetLatestRelease", "/repos/rickrickston123/RepoTest/releases/latest"
        ),
        "GET /search/code": Replay("Search.testSearchCode", "/search/code"),
        "GET /search/issues": Replay("Search.testSearchIssues", "/search/issues"),
        "GET /user": Replay("RepositoryAdvisory.setUp", "/user"),
        "GET /user/repos": Replay("AuthenticatedUser.testGetRepos", "/user/repos"),
        "GET /users/{username}": Replay("NamedUser.setUp", "/users/jacquev6"),
        "GET /users/{username}/repos": Replay("NamedUser.testGetRepos", "/users/jacquev6/repos"),
        "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}": Replay(
            "IssueComment.testEdit", f"{PG}/issues/comments/20227753"
        ),
        "PATCH /repos/{owner}/{repo}/issues/{issue_number}": Replay(
            "Issue.testEditWithStateReasonNotPlanned", f"{PG}/issues/28"
        ),
        "PATCH /repos/{owner}/{repo}/pulls/{pull_number}": Replay(
            "PullRequest.testEditWithoutArguments", f"{PG}/pulls/31"
        ),
        "POST /repos/{owner}/{repo}/deployments": Replay("Repository.testCreateDeployment", f"{PG}/deployments"),
        "POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses": Replay(
            "DeploymentStatus.testCreate", "/repos/jacquev6/PyGithub/deployments/263877258/statuses"
        ),
        "POST /repos/{owner}/{repo}/git/blobs": Replay("Repository.testCreateGitBlob", f"{PG}/git/blobs"),
        "POST /repos/{owner}/{repo}/git/commits": Replay("GitRef.testExample", "/repos/EnricoMi/PyGithub/git/commits"),
        "POST /repos/{owner}/{repo}/git/refs": Replay("Repository.testCreateGitRef", f"{PG}/git/refs"),
        "POST /repos/{owner}/{repo}/git/trees": Replay("Repository.testCreateGitTreeWithBaseTree", f"{PG}/git/trees"),
        "POST /repos/{owner}/{repo}/issues": Replay("Repository.testCreateIssueWithAllArguments", f"{PG}/issues"),
        "POST /repos/{owner}/{repo}/issues/{issue_number}/assignees": Replay(
            "Issue.testAddAndRemoveAssignees", f"{PG}/issues/28/assignees"
        ),
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": Replay(
            "Issue.testCreateComment", f"{PG}/issues/28/comments"
        ),
        "POST /repos/{owner}/{repo}/issues/{issue_number}/labels": Replay(
            "Issue.testAddAndRemoveLabels", f"{PG}/issues/28/labels"
        ),
        "POST /repos/{owner}/{repo}/labels": Replay("Repository.testCreateLabel", f"{PG}/labels"),
        "POST /repos/{owner}/{repo}/pulls": Replay("Repository.testCreatePull", f"{PG}/pulls"),
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments": Replay(
            "PullRequest.testCreateMultilineReviewComment", f"{PG}/pulls/31/comments"
        ),
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies": Replay(
            "PullRequest1375.testCreateReviewCommentReply", "/repos/rsn491/PyGithub/pulls/1/comments/373866377/replies"
        ),
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews": Replay(
            "PullRequestReview.setUp", f"{PG}/pulls/538/reviews"
        ),
        "POST /repos/{owner}/{repo}/statuses/{sha}": Replay(
            "Commit.testCreateStatusWithAllParameters",
            "/repos/jacquev6/PyGithub/statuses/1292bf0e22c796e91cc3d6e24b544aece8c21f2a",
        ),
        "PUT /repos/{owner}/{repo}/contents/{path}": Replay(
            "Repository.testCreateFile", f"{PG}/contents/doc/testCreateUpdateDeleteFile.md"
        ),
        "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels": Replay(
            "PullRequest.testDeleteAndSetLabels", f"{PG}/issues/31/labels"
        ),
        "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge": Replay("PullRequest.testMerge", f"{PG}/pulls/31/merge"),
    },
    "datadog": {
        "DELETE /api/v1/monitor/{monitor_id}": Cassette(
            V1 + "test_check_if_a_monitor_can_be_deleted_returns_ok_response.yaml", "/api/v1/monitor/238669218"
        ),
        "GET /api/v1/dashboard/{dashboard_id}": Cassette(
            V1 + "test_get_a_dashboard_returns_ok_response.yaml", "/api/v1/dashboard/448-ktj-ezs"
        ),
        "GET /api/v1/downtime": Cassette(V1 + "test_get_all_downtimes_returns_ok_response.yaml", "/api/v1/downtime"),
        "GET /api/v1/downtime/{downtime_id}": Cassette(
            V1 + "test_get_a_downtime_returns_ok_response.yaml", "/api/v1/downtime/2941966869"
        ),
        "GET /api/v1/monitor/can_delete": Cassette(
            V1 + "test_check_if_a_monitor_can_be_deleted_returns_ok_response.yaml", "/api/v1/monitor/can_delete"
        ),
        "GET /api/v2/metrics": Cassette(
            V2 + "test_get_a_list_of_metrics_returns_success_response_with_pagination.yaml", "/api/v2/metrics"
        ),
        "POST /api/v1/downtime": Cassette(
            V1 + "test_schedule_a_monitor_downtime_returns_ok_response.yaml", "/api/v1/downtime"
        ),
        "POST /api/v1/downtime/cancel/by_scope": Cassette(
            V1 + "test_cancel_downtimes_by_scope_returns_ok_response.yaml", "/api/v1/downtime/cancel/by_scope"
        ),
        "POST /api/v2/query/scalar": Cassette(
            V2 + "test_scalar_cross_product_query_returns_ok_response.yaml", "/api/v2/query/scalar"
        ),
        "POST /api/v2/query/timeseries": Cassette(
            V2 + "test_timeseries_cross_product_query_returns_ok_response.yaml", "/api/v2/query/timeseries"
        ),
        "POST /api/v2/series": Cassette(
            V2 + "test_submit_metrics_returns_payload_accepted_response.yaml", "/api/v2/series"
        ),
        "PUT /api/v1/downtime/{downtime_id}": Cassette(
            V1 + "test_update_a_downtime_returns_ok_response.yaml", "/api/v1/downtime/2941982639"
        ),
        "GET /api/v1/hosts": Cassette(
            V1 + "test_get_all_hosts_with_metadata_deserializes_successfully.yaml", "/api/v1/hosts"
        ),
        "GET /api/v1/monitor": Cassette(
            V1 + "test_get_all_monitors_returns_ok_response_with_pagination.yaml", "/api/v1/monitor"
        ),
        "GET /api/v1/monitor/groups/search": Cassette(
            V1 + "test_monitors_group_search_returns_ok_response.yaml", "/api/v1/monitor/groups/search"
        ),
        "GET /api/v1/monitor/search": Cassette(
            V1 + "test_monitors_search_returns_ok_response.yaml", "/api/v1/monitor/search"
        ),
        "GET /api/v1/monitor/{monitor_id}": Cassette(
            V1 + "test_get_a_monitors_details_returns_ok_response.yaml", "/api/v1/monitor/155844758"
        ),
        "GET /api/v1/query": Cassette(V1 + "test_query_timeseries_points_returns_ok_response.yaml", "/api/v1/query"),
        "GET /api/v1/slo": Cassette(V1 + "test_get_all_slos_returns_ok_response.yaml", "/api/v1/slo"),
        "GET /api/v1/validate": Cassette(V1 + "test_validate_api_key_returns_ok_response.yaml", "/api/v1/validate"),
        "GET /api/v2/downtime": Cassette(V2 + "test_get_all_downtimes_returns_ok_response.yaml", "/api/v2/downtime"),
        "GET /api/v2/downtime/{downtime_id}": Cassette(
            V2 + "test_get_a_downtime_returns_ok_response.yaml", "/api/v2/downtime/845e9a1e-0187-11ee-817a-da7ad0900002"
        ),
        "GET /api/v2/events": Cassette(
            V2 + "test_get_a_list_of_events_returns_ok_response_with_pagination.yaml", "/api/v2/events"
        ),
        "GET /api/v2/incidents": Cassette(
            V2 + "test_get_a_list_of_incidents_returns_ok_response.yaml", "/api/v2/incidents"
        ),
        "GET /api/v2/incidents/{incident_id}": Cassette(
            V2 + "test_get_the_details_of_an_incident_returns_ok_response.yaml",
            "/api/v2/incidents/19c87e47-487a-5ce4-8841-61d23ea414d4",
        ),
        "GET /api/v2/logs/events": Cassette(
            V2 + "test_get_a_list_of_logs_returns_ok_response_with_pagination.yaml", "/api/v2/logs/events"
        ),
        "GET /api/v2/monitor/{monitor_id}/downtime_matches": Cassette(
            V2 + "test_get_active_downtimes_for_a_monitor_returns_ok_response.yaml",
            "/api/v2/monitor/35534610/downtime_matches",
        ),
        "GET /api/v2/users": Cassette(V2 + "test_list_all_users_returns_ok_response.yaml", "/api/v2/users"),
        "PATCH /api/v2/downtime/{downtime_id}": Cassette(
            V2 + "test_update_a_downtime_returns_ok_response.yaml",
            "/api/v2/downtime/865c7f20-0187-11ee-ac0a-da7ad0900002",
        ),
        "PATCH /api/v2/incidents/{incident_id}": Cassette(
            V2 + "test_update_an_existing_incident_returns_ok_response.yaml",
            "/api/v2/incidents/a6250371-3453-5a56-b302-93500bfb7e41",
        ),
        "POST /api/v1/events": Cassette(V1 + "test_post_an_event_returns_ok_response.yaml", "/api/v1/events"),
        "POST /api/v1/monitor": Cassette(V1 + "test_create_a_monitor_returns_ok_response.yaml", "/api/v1/monitor"),
        "POST /api/v2/downtime": Cassette(V2 + "test_schedule_a_downtime_returns_ok_response.yaml", "/api/v2/downtime"),
        "POST /api/v2/events/search": Cassette(
            V2 + "test_search_events_returns_ok_response_with_pagination.yaml", "/api/v2/events/search"
        ),
        "POST /api/v2/incidents": Cassette(
            V2 + "test_create_an_incident_returns_created_response.yaml", "/api/v2/incidents"
        ),
        "POST /api/v2/logs/events/search": Cassette(
            V2 + "test_search_logs_returns_ok_response_with_pagination.yaml", "/api/v2/logs/events/search"
        ),
        "PUT /api/v1/monitor/{monitor_id}": Cassette(
            V1 + "test_edit_a_monitor_returns_ok_response.yaml", "/api/v1/monitor/155845150"
        ),
    },
}

# Samples read at an older commit: the snapshot of HEAD lacks these (its largest files are not stored).
SLACK_AT = {"search.messages": "a767aa5d16373cbe46a2d0a670b7bb90a69db74b"}

NOTE_CHANNEL = "a note's channel is a reference only when an event rule wrote the note; soundstage has no event rules"

# Key paths soundstage cannot have, with why: written into the data files, left out of the comparison.
# An entry is a sequence of keys; it excludes every key path that contains it as whole keys.
EXCLUSIONS: dict[str, dict[str, str]] = {
    "slack": {
        "error": "the samples merge error bodies into success bodies; a success has no error",
        "needed": "an error body's missing scope",
        "provided": "an error body's granted scopes",
        "enterprise_id": "Enterprise Grid organizations only",
        "enterprise_user": "Enterprise Grid organizations only",
        "enterprise": "Enterprise Grid organizations only",
        "is_enterprise_install": "Enterprise Grid organizations only",
        "blocks[]": "Block Kit content is what the poster sent; the samples merge every block type ever seen",
        "attachments[]": "legacy attachments are what the poster sent; the samples merge every kind ever seen",
        "title_blocks[]": "Block Kit content of AI assistant threads, which soundstage has no app for",
        "assistant_app_thread": "AI assistant app threads: soundstage has no apps",
        "files[]": "file uploads: soundstage has no files.* methods",
        "file": "file uploads: soundstage has no files.* methods",
        "room": "huddles and calls: not part of soundstage's Slack",
        "list": "Slack Lists: not part of soundstage's Slack",
        "list_record": "Slack Lists: not part of soundstage's Slack",
        "list_records[]": "Slack Lists: not part of soundstage's Slack",
        "list_metadata": "Slack Lists: not part of soundstage's Slack",
        "list_limits": "Slack Lists: not part of soundstage's Slack",
        "warning": "only when Slack warns about a request; the calls measured draw no warning",
        "response_metadata.messages": "the texts of warnings; the calls measured draw no warning",
        "deprecated_argument": "a warning about a deprecated argument the calls measured do not send",
        "errors": "the failed parts of a partly failed call; the calls measured succeed whole",
        "arg": "a detail of error bodies",
        "callstack": "a detail of error bodies",
        "X00000000": "custom profile fields are keyed by the workspace's own field ids (placeholders here)",
        "X00000001": "custom profile fields are keyed by the workspace's own field ids (placeholders here)",
    },
    "github": {
        "payload.test": "a deployment's payload is whatever its creator sent",
    },
    "datadog": {
        "profile_metrics_query": "a dashboard's widgets are whatever its author made (the recorded one has a"
        " Continuous Profiler widget)",
    },
    "pagerduty": {
        "details.customKey": "an alert's details are whatever its sender sent",
        "details.customKey2": "an alert's details are whatever its sender sent",
        "custom_details.build_number": "a change event's custom details are whatever its sender sent",
        "custom_details.build_state": "a change event's custom details are whatever its sender sent",
        "custom_details.run_time": "a change event's custom details are whatever its sender sent",
        "notes[].channel.id": NOTE_CHANNEL,
        "notes[].channel.type": NOTE_CHANNEL,
        "notes[].channel.self": NOTE_CHANNEL,
        "notes[].channel.html_url": NOTE_CHANNEL,
    },
    "gmail": {},
    "calendar": {
        "extendedProperties": "soundstage's events keep no extended properties (what a client stores on an event;"
        " the recorded ones are the client's own test property)",
    },
}


# -- reading the recordings --------------------------------------------------------------------------


def git_show(git_dir: Path, path: str, commit: str = "HEAD") -> str:
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{git_dir}: cannot read {path}: {done.stderr.strip()}")
    return done.stdout


def git_head(git_dir: Path) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


Found = tuple[str, int, Any]  # where a response was read, its status, its body


def module_export(text: str) -> Any:
    """The object a CommonJS module of one JSON value exports (`module.exports = {...};`)."""
    head, _, value = text.partition("module.exports =")
    if head.strip():
        raise SystemExit("not a module exporting one value")
    return json.loads(value.strip().removesuffix(";"))


def recorded_answer(text: str, name: str) -> Found:
    """A TypeScript constant holding a recorded answer as JSON (`export const NAME = {result, body, headers,
    status}`): its status and the body as received."""
    start = text.index(f"export const {name} = ") + len(f"export const {name} = ")
    record, _ = json.JSONDecoder().raw_decode(text, start)
    return f"{GMAIL_TS_CONST} ({name}, its body)", int(record["status"]), json.loads(record["body"])


def replay(git_dir: Path, method: str, pick: Replay) -> Found:
    """A PyGithub replay file is a sequence of records of 11 lines: scheme, method, host, port, path, request
    headers, request body, status, response headers, response body, a blank line."""
    file = f"tests/ReplayData/{pick.name}.txt"
    lines = git_show(git_dir, file).split("\n")
    for start in range(len(lines) - 9):
        if lines[start] not in ("http", "https") or not lines[start + 7].isdigit():
            continue
        status = int(lines[start + 7])
        if lines[start + 1] == method and lines[start + 4].partition("?")[0] == pick.path and 200 <= status < 300:
            return file, status, json.loads(lines[start + 9])
    raise SystemExit(f"{file}: no 2xx {method} {pick.path}")


def cassette(git_dir: Path, method: str, pick: Cassette) -> Found:
    for interaction in yaml.safe_load(git_show(git_dir, pick.file))["interactions"]:
        request, response = interaction["request"], interaction["response"]
        path = re.sub(r"^https?://[^/]+", "", request["uri"]).partition("?")[0]
        status = response["status"]["code"]
        if request["method"] == method and path == pick.path and 200 <= status < 300:
            return pick.file, status, json.loads(response["body"]["string"])
    raise SystemExit(f"{pick.file}: no 2xx {method} {pick.path}")


def example(description: dict[str, Any], operation: str) -> Found:
    method, _, path = operation.partition(" ")
    responses = description["paths"][path][method.lower()]["responses"]
    for code, response in responses.items():
        examples = response.get("content", {}).get("application/json", {}).get("examples", {})
        if code.startswith("2") and examples:
            name = next(iter(examples))
            return f"paths.{path}.{method.lower()}.responses.{code}.examples.{name}", int(code), examples[name]["value"]
    raise SystemExit(f"PagerDuty's description has no example answer for {operation}")


# -- writing the facts -------------------------------------------------------------------------------


def floors(service: str) -> dict[str, Any]:
    """The ratchet of a data file as it is (a new file starts at zero, which the first measurement raises)."""
    file = OUT / f"{service}.json"
    kept = json.loads(file.read_text()) if file.exists() else {}
    return {
        "floors": kept.get("floors", {"tailored": 0.0, "neutral": 0.0}),
        "max_mismatches": kept.get("max_mismatches", {"tailored": 0, "neutral": 0}),
        "required": kept.get("required", []),
    }


def read(args: argparse.Namespace, description: dict[str, Any], service: str, operation: str) -> Found | None:
    """The real response standing for an operation: where it was read, its status and its body (None: none)."""
    method = operation.partition(" ")[0]
    if service == "slack":
        file = f"json-logs/samples/api/{operation}.json"
        at = SLACK_AT.get(operation, "HEAD")
        return (file if at == "HEAD" else f"{file} at commit {at}", 200, json.loads(git_show(args.slack, file, at)))
    if service == "pagerduty":
        return example(description, operation)
    if service == "gmail":
        source, file = GMAIL.get(operation, ("", ""))
        given = getattr(args, source, None) if source else None
        if given is None:
            return None
        if source == "homeassistant":
            return file, 200, json.loads(given.read_bytes())
        if source == "gmail_parse":
            return (
                f"{file} at commit {GMAIL_PARSE_COMMIT}",
                200,
                module_export(git_show(given, file, GMAIL_PARSE_COMMIT)),
            )
        return recorded_answer(git_show(given, file), GMAIL_TS_EXPORT)
    if service == "calendar":
        source, file = CALENDAR.get(operation, ("", ""))
        given = getattr(args, source, None) if source else None
        return (file, 200, json.loads(git_show(given, file))) if given is not None else None
    pick = TABLE[service].get(operation)
    if isinstance(pick, Replay):
        return replay(args.pygithub, method, pick)
    if isinstance(pick, Cassette):
        return cassette(args.datadog, method, pick)
    return None


def where(facts: dict[str, Any]) -> str:
    """Where an operation's facts were read, for SOURCES.md: the file, and its repository where the service has
    several."""
    return f"{facts['repository']}: {facts['source']}" if "repository" in facts else facts["source"]


def origin_of_operation(service: str, operation: str) -> str:
    """The source an operation's recorded answer is read from, for a service with several."""
    if service == "calendar":
        return CALENDAR[operation][0]
    return GMAIL[operation][0] if service == "gmail" else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pygithub", type=Path, help="git directory of PyGithub/PyGithub")
    parser.add_argument("--datadog", type=Path, help="git directory of DataDog/datadog-api-client-python")
    parser.add_argument("--slack", type=Path, help="git directory of slackapi/java-slack-sdk")
    parser.add_argument("--pagerduty", type=Path, help="PagerDuty's reference/REST/openapiv3.json")
    parser.add_argument("--gcalcli", type=Path, help="git directory of insanum/gcalcli")
    parser.add_argument("--google-calendar", type=Path, help="git directory of northworld/google_calendar")
    parser.add_argument(
        "--homeassistant-gmail-profile",
        dest="homeassistant",
        type=Path,
        help=f"home-assistant/core's {HOMEASSISTANT_GMAIL_PROFILE} at commit {HOMEASSISTANT_COMMIT}",
    )
    parser.add_argument(
        "--gmail-api-parse-message",
        dest="gmail_parse",
        type=Path,
        help="git directory of EmilTholin/gmail-api-parse-message",
    )
    parser.add_argument(
        "--gmail-api-parse-message-ts",
        dest="gmail_parse_ts",
        type=Path,
        help="git directory of larsklingsten/gmail-api-parse-message-ts",
    )
    args = parser.parse_args()

    from soundstage.services import SERVICES

    description: dict[str, Any] = {}
    if args.pagerduty is not None:
        raw = args.pagerduty.read_bytes()
        if hashlib.sha256(raw).hexdigest() != PAGERDUTY_SHA256:
            raise SystemExit(f"{args.pagerduty} is not the PagerDuty description of commit {PAGERDUTY_COMMIT}")
        description = json.loads(raw)
    profile = args.homeassistant
    if profile is not None and hashlib.sha256(profile.read_bytes()).hexdigest() != HOMEASSISTANT_SHA256:
        raise SystemExit(f"{profile} is not {HOMEASSISTANT_GMAIL_PROFILE} at commit {HOMEASSISTANT_COMMIT}")
    # The sources of each service; a service's operations may come from several (Google Calendar's do).
    origin_of = {
        "slack": ["slack"],
        "github": ["pygithub"],
        "datadog": ["datadog"],
        "pagerduty": ["pagerduty"],
        "calendar": ["gcalcli", "google_calendar"],
        "gmail": ["homeassistant", "gmail_parse", "gmail_parse_ts"],
    }
    commits: dict[str, str] = {}
    sources: dict[str, dict[str, str]] = {}
    for service, origins in origin_of.items():
        file = OUT / f"{service}.json"
        old = json.loads(file.read_text()) if file.exists() else None
        described_before = (old or {}).get("origins", [(old or {}).get("origin")])
        old_commits = {o["repository"]: o["commit"] for o in described_before if o}
        given = {origin: getattr(args, origin) for origin in origins if getattr(args, origin) is not None}
        for origin in origins:
            if origin in given:
                pinned = {
                    "pagerduty": PAGERDUTY_COMMIT,
                    "homeassistant": HOMEASSISTANT_COMMIT,
                    "gmail_parse": GMAIL_PARSE_COMMIT,
                }
                commits[origin] = pinned[origin] if origin in pinned else git_head(given[origin])
            elif ORIGINS[origin].repo in old_commits:
                commits[origin] = old_commits[ORIGINS[origin].repo]
        if not given:  # its data file stays as it is
            if old is not None:
                sources[service] = {operation: where(facts) for operation, facts in old["operations"].items()}
            continue
        operations: dict[str, dict[str, Any]] = {}
        for operation in SERVICES[service].operations():
            kept_before = (old or {}).get("operations", {}).get(operation)
            if kept_before is not None and kept_before.get("repository", old["origin"]["repository"]) not in {
                ORIGINS[origin].repo for origin in given
            }:  # from a source not given this time: kept as it is, named by its repository where there are several
                repository = {"repository": kept_before.get("repository", old["origin"]["repository"])}
                source, rest = (
                    {"source": kept_before["source"]},
                    {k: v for k, v in kept_before.items() if k != "source"},
                )
                operations[operation] = {**source, **(repository if len(origins) > 1 else {}), **rest}
                continue
            found = read(args, description, service, operation)
            if found is None:
                continue
            read_from, status, body = found
            paths = key_paths(body)
            kept = {path: formats for path, formats in paths.items() if not excluded(path, list(EXCLUSIONS[service]))}
            operations[operation] = {
                "source": read_from,
                **({"repository": ORIGINS[origin_of_operation(service, operation)].repo} if len(origins) > 1 else {}),
                "status": status,
                "excluded": len(paths) - len(kept),
                "paths": kept,
            }
        sources[service] = {operation: where(facts) for operation, facts in operations.items()}
        described = [
            {"repository": ORIGINS[origin].repo, "commit": commits[origin], "license": ORIGINS[origin].license}
            for origin in origins
            if origin in commits
        ]
        data = {
            "service": service,
            "origin": described[0],
            **({"origins": described} if len(origins) > 1 else {}),
            **floors(service),
            "exclusions": EXCLUSIONS[service],
            "operations": operations,
        }
        file.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    write_sources(commits, sources)


def write_sources(commits: dict[str, str], sources: dict[str, dict[str, str]]) -> None:
    """SOURCES.md: the repositories (commit, license) and, per service, the file each operation's facts come from."""
    rows = "\n".join(
        f"| {origin.repo} | {commits[key]} | {origin.what} | {origin.license} |"
        for key, origin in ORIGINS.items()
        if key in commits
    )
    lines = [
        "# Where the recorded facts come from",
        "",
        (
            "Generated by `python scripts/extract_recorded.py --pygithub GITDIR --datadog GITDIR --slack GITDIR"
            " --pagerduty FILE --gcalcli GITDIR --google-calendar GITDIR --homeassistant-gmail-profile FILE"
            " --gmail-api-parse-message GITDIR --gmail-api-parse-message-ts GITDIR`;"
        ),
        "do not edit by hand (except the floors, `max_mismatches` and `required` in the data files: the script keeps",
        "them as they are, and `python scripts/coverage_docs.py --floors` sets the first two to the measured figures).",
        "",
        "The data files hold facts only: for one real response per operation, its key paths and the formats of",
        "their values, never the values. Each comes from a file of the repository below, at the commit given.",
        "",
        "| repository | commit | what | license |",
        "|---|---|---|---|",
        rows,
    ]
    for service, by_operation in sources.items():
        lines += ["", f"## {service}", "", "| operation | read from |", "|---|---|"]
        lines += [f"| `{operation}` | {where} |" for operation, where in by_operation.items()]
    (OUT / "SOURCES.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
