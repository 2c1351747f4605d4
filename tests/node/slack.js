// Slack through @slack/web-api: answer the customer's question in #support in its thread, and react to it.
import { WebClient } from "@slack/web-api";

const slack = new WebClient(process.env.SLACK_BOT_TOKEN, {
  slackApiUrl: process.env.SLACK_API_URL,
  retryConfig: { retries: 0 },
});

const listed = await slack.conversations.list({ types: "public_channel", exclude_archived: true, limit: 100 });
const support = listed.channels.find((channel) => channel.name === "support");
const history = await slack.conversations.history({ channel: support.id, limit: 10 });
const question = history.messages.find((message) => message.text.includes("CSV export"));
const posted = await slack.chat.postMessage({
  channel: support.id,
  thread_ts: question.ts,
  text: "The CSV export is under Reports > Exports; big exports arrive by email within 10 minutes.",
});
await slack.reactions.add({ channel: support.id, timestamp: question.ts, name: "white_check_mark" });
const uploaded = await slack.filesUploadV2({
  channel_id: support.id,
  thread_ts: question.ts,
  content: "id,total\n1,20\n",
  filename: "export.csv",
  title: "Export",
});
const file = (await slack.files.info({ file: uploaded.files[0].files[0].id })).file;
const replies = await slack.conversations.replies({ channel: support.id, ts: question.ts });
const reacted = await slack.reactions.get({ channel: support.id, timestamp: question.ts });
const people = [];
let pages = 0;
for await (const page of slack.paginate("users.list", { limit: 4 })) {
  pages += 1;
  people.push(...page.members.filter((member) => !member.deleted && !member.is_bot).map((member) => member.name));
}
const names = {};
for (const message of replies.messages) {
  names[message.user] ??= (await slack.users.info({ user: message.user })).user.name;
}

console.log(JSON.stringify({
  channels: listed.channels.map((channel) => channel.name),
  history: history.messages.map((message) => message.text),
  posted: { ok: posted.ok, channel: posted.channel === support.id, thread_ts: posted.message.thread_ts === question.ts },
  replies: replies.messages.map((message) => [names[message.user], message.text]),
  reply_count: replies.messages[0].reply_count,
  file: [file.name, file.title, file.size, file.filetype],
  people: [pages, people.sort()],
  reactions: reacted.message.reactions.map((reaction) => [reaction.name, reaction.users.map((user) => names[user])]),
}, null, 1));
