"""The part of GitHub's GraphQL schema (API v4) the world can answer: repositories, issues, pull requests
with their reviews and comments, labels and accounts, and the mutations `gh` sends on them. Names, types
and nullability are GitHub's (docs.github.com/graphql/reference); a field not written here is one the
world has nothing for, and a query naming it is refused as GitHub refuses an unknown field."""

from __future__ import annotations

from graphql import GraphQLSchema, build_schema

SDL = """
scalar DateTime
scalar URI
scalar GitObjectID
scalar GitTimestamp
scalar HTML

interface Node { id: ID! }

interface Actor {
  login: String!
  avatarUrl(size: Int): URI!
  url: URI!
  resourcePath: URI!
}

interface Labelable { labels(first: Int, after: String, last: Int, before: String): LabelConnection }
interface Assignable { assignees(first: Int, after: String, last: Int, before: String): UserConnection! }

interface RepositoryOwner {
  id: ID!
  login: String!
  avatarUrl(size: Int): URI!
  url: URI!
  resourcePath: URI!
}

enum PullRequestState { OPEN CLOSED MERGED }
enum IssueState { OPEN CLOSED }
enum IssueStateReason { COMPLETED NOT_PLANNED REOPENED }
enum IssueClosedStateReason { COMPLETED NOT_PLANNED }
enum MergeableState { MERGEABLE CONFLICTING UNKNOWN }
enum MergeStateStatus { BEHIND BLOCKED CLEAN DIRTY DRAFT HAS_HOOKS UNKNOWN UNSTABLE }
enum PullRequestMergeMethod { MERGE SQUASH REBASE }
enum PullRequestReviewState { PENDING COMMENTED APPROVED CHANGES_REQUESTED DISMISSED }
enum PullRequestReviewDecision { CHANGES_REQUESTED APPROVED REVIEW_REQUIRED }
enum PullRequestReviewEvent { COMMENT APPROVE REQUEST_CHANGES DISMISS }
enum RepositoryVisibility { PRIVATE PUBLIC INTERNAL }
enum RepositoryPermission { ADMIN MAINTAIN WRITE TRIAGE READ }
enum CommentAuthorAssociation {
  MEMBER OWNER MANNEQUIN COLLABORATOR CONTRIBUTOR FIRST_TIME_CONTRIBUTOR FIRST_TIMER NONE
}
enum ReactionContent { THUMBS_UP THUMBS_DOWN LAUGH HOORAY CONFUSED HEART ROCKET EYES }
enum OrderDirection { ASC DESC }
enum IssueOrderField { CREATED_AT UPDATED_AT COMMENTS }
enum LabelOrderField { NAME CREATED_AT }
enum StatusState { EXPECTED ERROR FAILURE PENDING SUCCESS }
enum CheckStatusState { REQUESTED QUEUED IN_PROGRESS COMPLETED WAITING PENDING }
enum CheckConclusionState {
  ACTION_REQUIRED TIMED_OUT CANCELLED FAILURE SUCCESS NEUTRAL SKIPPED STARTUP_FAILURE STALE
}

input IssueOrder { field: IssueOrderField! direction: OrderDirection! }
input LabelOrder { field: LabelOrderField direction: OrderDirection! }
input IssueFilters {
  assignee: String
  createdBy: String
  labels: [String!]
  mentioned: String
  milestone: String
  states: [IssueState!]
}

type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

type User implements Node & Actor & RepositoryOwner {
  id: ID!
  databaseId: Int
  login: String!
  name: String
  email: String!
  avatarUrl(size: Int): URI!
  url: URI!
  resourcePath: URI!
  createdAt: DateTime!
}

type Bot implements Node & Actor {
  id: ID!
  databaseId: Int
  login: String!
  avatarUrl(size: Int): URI!
  url: URI!
  resourcePath: URI!
  createdAt: DateTime!
}

type Organization implements Node & Actor & RepositoryOwner {
  id: ID!
  databaseId: Int
  login: String!
  name: String
  avatarUrl(size: Int): URI!
  url: URI!
  resourcePath: URI!
  createdAt: DateTime!
}

type Team { organization: Organization! name: String! slug: String! }

type Ref { id: ID! name: String! prefix: String! target: Commit branchProtectionRule: BranchProtectionRule }
type BranchProtectionRule { requiresStrictStatusChecks: Boolean! requiresApprovingReviews: Boolean! }

type Commit implements Node {
  id: ID!
  oid: GitObjectID!
  abbreviatedOid: String!
  message: String!
  messageHeadline: String!
  messageBody: String!
  committedDate: DateTime!
  authoredDate: DateTime!
  url: URI!
  author: GitActor
  committer: GitActor
  authors(first: Int, after: String, last: Int, before: String): GitActorConnection!
  statusCheckRollup: StatusCheckRollup
}

type GitActor { avatarUrl(size: Int): URI! date: GitTimestamp email: String name: String user: User }
type GitActorEdge { cursor: String! node: GitActor }
type GitActorConnection { totalCount: Int! nodes: [GitActor] edges: [GitActorEdge] pageInfo: PageInfo! }

type StatusCheckRollup { state: StatusState! contexts(first: Int, after: String): StatusCheckRollupContextConnection! }
type StatusContext {
  context: String!
  state: StatusState!
  targetUrl: URI
  description: String
  createdAt: DateTime!
  isRequired(pullRequestId: ID, pullRequestNumber: Int): Boolean!
}
type CheckRun {
  name: String!
  isRequired(pullRequestId: ID, pullRequestNumber: Int): Boolean!
  status: CheckStatusState!
  conclusion: CheckConclusionState
  startedAt: DateTime
  completedAt: DateTime
  detailsUrl: URI
  checkSuite: CheckSuite
}
type CheckSuite { workflowRun: WorkflowRun }
type WorkflowRun { workflow: Workflow! }
type Workflow { name: String! }
union StatusCheckRollupContext = CheckRun | StatusContext
type StatusCheckRollupContextConnection {
  totalCount: Int!
  nodes: [StatusCheckRollupContext]
  pageInfo: PageInfo!
}

type Label implements Node {
  id: ID!
  name: String!
  color: String!
  description: String
  isDefault: Boolean!
  url: URI!
}
type LabelConnection { totalCount: Int! nodes: [Label] pageInfo: PageInfo! }

type UserConnection { totalCount: Int! nodes: [User] pageInfo: PageInfo! }

type ReactingUserConnection { totalCount: Int! }
type ReactionGroup { content: ReactionContent! users(first: Int): ReactingUserConnection! }

type Milestone { number: Int! title: String! description: String dueOn: DateTime }

type ProjectCardConnection { totalCount: Int! nodes: [ProjectCard] pageInfo: PageInfo! }
type ProjectCard { project: Project! column: ProjectColumn }
type Project { name: String! }
type ProjectColumn { name: String! }
type ProjectV2ItemConnection { totalCount: Int! nodes: [ProjectV2Item] pageInfo: PageInfo! }
type ProjectV2Item { id: ID! project: ProjectV2! }
type ProjectV2 { id: ID! title: String! }

type IssueComment implements Node {
  id: ID!
  databaseId: Int
  author: Actor
  authorAssociation: CommentAuthorAssociation!
  body: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  includesCreatedEdit: Boolean!
  isMinimized: Boolean!
  minimizedReason: String
  reactionGroups: [ReactionGroup!]
  url: URI!
  viewerDidAuthor: Boolean!
}
type IssueCommentEdge { cursor: String! node: IssueComment }
type IssueCommentConnection { totalCount: Int! nodes: [IssueComment] pageInfo: PageInfo! }

type PullRequestReview implements Node {
  id: ID!
  databaseId: Int
  author: Actor
  authorAssociation: CommentAuthorAssociation!
  body: String!
  state: PullRequestReviewState!
  submittedAt: DateTime
  commit: Commit
  includesCreatedEdit: Boolean!
  reactionGroups: [ReactionGroup!]
  url: URI!
}
type PullRequestReviewConnection { totalCount: Int! nodes: [PullRequestReview] pageInfo: PageInfo! }

type ReviewRequest { requestedReviewer: RequestedReviewer }
union RequestedReviewer = User | Team | Bot
type ReviewRequestConnection { totalCount: Int! nodes: [ReviewRequest] }

type PullRequestCommit { commit: Commit! }
type PullRequestCommitConnection { totalCount: Int! nodes: [PullRequestCommit] pageInfo: PageInfo! }

type PullRequestChangedFile { path: String! additions: Int! deletions: Int! }
type PullRequestChangedFileConnection { totalCount: Int! nodes: [PullRequestChangedFile] pageInfo: PageInfo! }

type Issue implements Node & Labelable & Assignable {
  id: ID!
  databaseId: Int
  number: Int!
  title: String!
  body: String!
  state: IssueState!
  stateReason: IssueStateReason
  closed: Boolean!
  closedAt: DateTime
  createdAt: DateTime!
  updatedAt: DateTime!
  locked: Boolean!
  url: URI!
  author: Actor
  authorAssociation: CommentAuthorAssociation!
  repository: Repository!
  labels(first: Int, after: String, last: Int, before: String): LabelConnection
  assignees(first: Int, after: String, last: Int, before: String): UserConnection!
  comments(first: Int, after: String, last: Int, before: String): IssueCommentConnection!
  milestone: Milestone
  projectCards(first: Int, after: String): ProjectCardConnection!
  projectItems(first: Int, after: String): ProjectV2ItemConnection!
  reactionGroups: [ReactionGroup!]
  viewerDidAuthor: Boolean!
}
type IssueEdge { cursor: String! node: Issue }
type IssueConnection { totalCount: Int! nodes: [Issue] edges: [IssueEdge] pageInfo: PageInfo! }

type PullRequest implements Node & Labelable & Assignable {
  id: ID!
  databaseId: Int
  number: Int!
  title: String!
  body: String!
  state: PullRequestState!
  closed: Boolean!
  closedAt: DateTime
  merged: Boolean!
  mergedAt: DateTime
  mergedBy: Actor
  mergeCommit: Commit
  createdAt: DateTime!
  updatedAt: DateTime!
  locked: Boolean!
  url: URI!
  author: Actor
  authorAssociation: CommentAuthorAssociation!
  isDraft: Boolean!
  maintainerCanModify: Boolean!
  mergeable: MergeableState!
  mergeStateStatus: MergeStateStatus!
  additions: Int!
  deletions: Int!
  changedFiles: Int!
  baseRefName: String!
  baseRefOid: GitObjectID!
  headRefName: String!
  headRefOid: GitObjectID!
  baseRef: Ref
  headRef: Ref
  repository: Repository!
  baseRepository: Repository
  headRepository: Repository
  headRepositoryOwner: RepositoryOwner
  isCrossRepository: Boolean!
  commits(first: Int, after: String, last: Int, before: String): PullRequestCommitConnection!
  files(first: Int, after: String, last: Int, before: String): PullRequestChangedFileConnection
  reviews(
    first: Int, after: String, last: Int, before: String, states: [PullRequestReviewState!]
  ): PullRequestReviewConnection
  latestReviews(first: Int, after: String, last: Int, before: String): PullRequestReviewConnection
  reviewDecision: PullRequestReviewDecision
  reviewRequests(first: Int, after: String): ReviewRequestConnection
  labels(first: Int, after: String, last: Int, before: String): LabelConnection
  assignees(first: Int, after: String, last: Int, before: String): UserConnection!
  comments(first: Int, after: String, last: Int, before: String): IssueCommentConnection!
  milestone: Milestone
  projectCards(first: Int, after: String): ProjectCardConnection!
  projectItems(first: Int, after: String): ProjectV2ItemConnection!
  reactionGroups: [ReactionGroup!]
  viewerDidAuthor: Boolean!
}
type PullRequestEdge { cursor: String! node: PullRequest }
type PullRequestConnection { totalCount: Int! nodes: [PullRequest] edges: [PullRequestEdge] pageInfo: PageInfo! }

enum SearchType { ISSUE }
union SearchResultItem = Issue | PullRequest
type SearchResultItemEdge { cursor: String! node: SearchResultItem }
type SearchResultItemConnection {
  issueCount: Int!
  nodes: [SearchResultItem]
  edges: [SearchResultItemEdge]
  pageInfo: PageInfo!
}

union IssueOrPullRequest = Issue | PullRequest

enum ReleaseOrderField { CREATED_AT NAME }
input ReleaseOrder { field: ReleaseOrderField! direction: OrderDirection! }
type Release implements Node {
  id: ID!
  databaseId: Int
  name: String
  tagName: String!
  description: String
  isDraft: Boolean!
  isLatest: Boolean!
  isPrerelease: Boolean!
  createdAt: DateTime!
  publishedAt: DateTime
  updatedAt: DateTime!
  url: URI!
  resourcePath: URI!
  author: User
  tagCommit: Commit
}
type ReleaseEdge { cursor: String! node: Release }
type ReleaseConnection { totalCount: Int! nodes: [Release] edges: [ReleaseEdge] pageInfo: PageInfo! }

type Repository implements Node {
  id: ID!
  databaseId: Int
  name: String!
  nameWithOwner: String!
  owner: RepositoryOwner!
  description: String
  url: URI!
  homepageUrl: URI
  isPrivate: Boolean!
  visibility: RepositoryVisibility!
  isFork: Boolean!
  isArchived: Boolean!
  isTemplate: Boolean!
  isEmpty: Boolean!
  hasIssuesEnabled: Boolean!
  hasWikiEnabled: Boolean!
  hasProjectsEnabled: Boolean!
  mergeCommitAllowed: Boolean!
  squashMergeAllowed: Boolean!
  rebaseMergeAllowed: Boolean!
  deleteBranchOnMerge: Boolean!
  viewerPermission: RepositoryPermission
  defaultBranchRef: Ref
  parent: Repository
  createdAt: DateTime!
  updatedAt: DateTime!
  pushedAt: DateTime
  stargazerCount: Int!
  forkCount: Int!
  issue(number: Int!): Issue
  pullRequest(number: Int!): PullRequest
  issueOrPullRequest(number: Int!): IssueOrPullRequest
  issues(
    first: Int, after: String, last: Int, before: String, states: [IssueState!], labels: [String!],
    orderBy: IssueOrder, filterBy: IssueFilters
  ): IssueConnection!
  pullRequests(
    first: Int, after: String, last: Int, before: String, states: [PullRequestState!], labels: [String!],
    headRefName: String, baseRefName: String, orderBy: IssueOrder
  ): PullRequestConnection!
  label(name: String!): Label
  labels(first: Int, after: String, last: Int, before: String, query: String, orderBy: LabelOrder): LabelConnection
  assignableUsers(first: Int, after: String, query: String): UserConnection!
  releases(first: Int, after: String, last: Int, before: String, orderBy: ReleaseOrder): ReleaseConnection!
  latestRelease: Release
}

type Query {
  viewer: User!
  repository(owner: String!, name: String!): Repository
  user(login: String!): User
  organization(login: String!): Organization
  node(id: ID!): Node
  nodes(ids: [ID!]!): [Node]!
  search(
    query: String!, type: SearchType!, first: Int, after: String, last: Int, before: String
  ): SearchResultItemConnection!
}

input CreateIssueInput {
  repositoryId: ID!
  title: String!
  body: String
  assigneeIds: [ID!]
  labelIds: [ID!]
  milestoneId: ID
  projectIds: [ID!]
  clientMutationId: String
}
type CreateIssuePayload { clientMutationId: String issue: Issue }

input AddCommentInput { subjectId: ID! body: String! clientMutationId: String }
type AddCommentPayload { clientMutationId: String commentEdge: IssueCommentEdge subject: Node }

input CloseIssueInput { issueId: ID! stateReason: IssueClosedStateReason clientMutationId: String }
type CloseIssuePayload { clientMutationId: String issue: Issue }
input ReopenIssueInput { issueId: ID! clientMutationId: String }
type ReopenIssuePayload { clientMutationId: String issue: Issue }

input ClosePullRequestInput { pullRequestId: ID! clientMutationId: String }
type ClosePullRequestPayload { clientMutationId: String pullRequest: PullRequest }
input ReopenPullRequestInput { pullRequestId: ID! clientMutationId: String }
type ReopenPullRequestPayload { clientMutationId: String pullRequest: PullRequest }

input CreatePullRequestInput {
  repositoryId: ID!
  baseRefName: String!
  headRefName: String!
  title: String!
  body: String
  draft: Boolean
  maintainerCanModify: Boolean
  clientMutationId: String
}
type CreatePullRequestPayload { clientMutationId: String pullRequest: PullRequest }

input MergePullRequestInput {
  pullRequestId: ID!
  mergeMethod: PullRequestMergeMethod
  commitHeadline: String
  commitBody: String
  expectedHeadOid: GitObjectID
  authorEmail: String
  clientMutationId: String
}
type MergePullRequestPayload { clientMutationId: String pullRequest: PullRequest }

input AddPullRequestReviewInput {
  pullRequestId: ID!
  event: PullRequestReviewEvent
  body: String
  commitOID: GitObjectID
  clientMutationId: String
}
type AddPullRequestReviewPayload { clientMutationId: String pullRequestReview: PullRequestReview }

input UpdateIssueInput {
  id: ID!
  title: String
  body: String
  assigneeIds: [ID!]
  labelIds: [ID!]
  state: IssueState
  milestoneId: ID
  projectIds: [ID!]
  clientMutationId: String
}
type UpdateIssuePayload { clientMutationId: String issue: Issue }

input UpdatePullRequestInput {
  pullRequestId: ID!
  title: String
  body: String
  baseRefName: String
  assigneeIds: [ID!]
  labelIds: [ID!]
  state: PullRequestUpdateState
  maintainerCanModify: Boolean
  milestoneId: ID
  projectIds: [ID!]
  clientMutationId: String
}
enum PullRequestUpdateState { OPEN CLOSED }
type UpdatePullRequestPayload { clientMutationId: String pullRequest: PullRequest }

input AddLabelsToLabelableInput { labelableId: ID! labelIds: [ID!]! clientMutationId: String }
type AddLabelsToLabelablePayload { clientMutationId: String labelable: Labelable }
input RemoveLabelsFromLabelableInput { labelableId: ID! labelIds: [ID!]! clientMutationId: String }
type RemoveLabelsFromLabelablePayload { clientMutationId: String labelable: Labelable }
input AddAssigneesToAssignableInput { assignableId: ID! assigneeIds: [ID!]! clientMutationId: String }
type AddAssigneesToAssignablePayload { clientMutationId: String assignable: Assignable }
input RemoveAssigneesFromAssignableInput { assignableId: ID! assigneeIds: [ID!]! clientMutationId: String }
type RemoveAssigneesFromAssignablePayload { clientMutationId: String assignable: Assignable }

type Mutation {
  updateIssue(input: UpdateIssueInput!): UpdateIssuePayload
  updatePullRequest(input: UpdatePullRequestInput!): UpdatePullRequestPayload
  addLabelsToLabelable(input: AddLabelsToLabelableInput!): AddLabelsToLabelablePayload
  removeLabelsFromLabelable(input: RemoveLabelsFromLabelableInput!): RemoveLabelsFromLabelablePayload
  addAssigneesToAssignable(input: AddAssigneesToAssignableInput!): AddAssigneesToAssignablePayload
  removeAssigneesFromAssignable(input: RemoveAssigneesFromAssignableInput!): RemoveAssigneesFromAssignablePayload
  createIssue(input: CreateIssueInput!): CreateIssuePayload
  addComment(input: AddCommentInput!): AddCommentPayload
  closeIssue(input: CloseIssueInput!): CloseIssuePayload
  reopenIssue(input: ReopenIssueInput!): ReopenIssuePayload
  createPullRequest(input: CreatePullRequestInput!): CreatePullRequestPayload
  closePullRequest(input: ClosePullRequestInput!): ClosePullRequestPayload
  reopenPullRequest(input: ReopenPullRequestInput!): ReopenPullRequestPayload
  mergePullRequest(input: MergePullRequestInput!): MergePullRequestPayload
  addPullRequestReview(input: AddPullRequestReviewInput!): AddPullRequestReviewPayload
}
"""

SCHEMA: GraphQLSchema = build_schema(SDL)
