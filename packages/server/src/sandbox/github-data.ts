/** In-memory repositories, issues and comments of the fake GitHub, serialized like api.github.com. */
import type { GitHubUser } from "./types.js";

export type GitHubLabel = { id: number; name: string; color: string };

export type GitHubComment = { id: number; body: string; user: GitHubUser; createdAt: string };

export type GitHubIssue = {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  user: GitHubUser;
  labels: GitHubLabel[];
  assignees: GitHubUser[];
  comments: GitHubComment[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
};

export type GitHubRepo = {
  id: number;
  name: string;
  owner: GitHubUser;
  private: boolean;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
  issues: GitHubIssue[];
};

const SEEDS: { name: string; private: boolean; description: string; createdAt: string; issues: [string, "open" | "closed"][] }[] = [
  { name: "hello-world", private: false, description: "My first repository on GitHub!", createdAt: "2011-01-26T19:01:12Z", issues: [["Found a bug", "open"], ["Typo in README", "closed"], ["Add a license", "open"]] },
  { name: "spoon-knife", private: false, description: "This repo is for demonstration purposes only.", createdAt: "2011-01-27T19:30:43Z", issues: [] },
  { name: "private-notes", private: true, description: "Notes nobody else may read.", createdAt: "2015-03-02T10:00:00Z", issues: [["Secret plan", "open"]] },
];

export function createGitHubStore(now: () => number) {
  const repos = new Map<string, GitHubRepo>();
  const seededOwners = new Set<string>();
  let nextId = 1296269;
  const iso = () => new Date(now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  const newId = () => (nextId += 7);

  function newIssue(repo: GitHubRepo, title: string, state: "open" | "closed", user: GitHubUser, body: string | null): GitHubIssue {
    const at = iso();
    const issue: GitHubIssue = {
      id: newId(),
      number: repo.issues.length + 1,
      title,
      body,
      state,
      user,
      labels: [],
      assignees: [],
      comments: [],
      createdAt: at,
      updatedAt: at,
      closedAt: state === "closed" ? at : null,
    };
    repo.issues.push(issue);
    return issue;
  }

  /** Each owner gets the same starter repositories the first time they are seen. */
  function ensureSeeded(owner: GitHubUser): void {
    if (seededOwners.has(owner.login.toLowerCase())) return;
    seededOwners.add(owner.login.toLowerCase());
    for (const seed of SEEDS) {
      const repo: GitHubRepo = {
        id: newId(),
        name: seed.name,
        owner,
        private: seed.private,
        description: seed.description,
        createdAt: seed.createdAt,
        updatedAt: iso(),
        pushedAt: iso(),
        issues: [],
      };
      repos.set(`${owner.login}/${seed.name}`.toLowerCase(), repo);
      for (const [title, state] of seed.issues) newIssue(repo, title, state, owner, `${title}.`);
    }
  }

  return {
    ensureSeeded,
    newIssue,
    newId,
    iso,
    find: (owner: string, name: string) => repos.get(`${owner}/${name}`.toLowerCase()),
    ownedBy: (login: string) => [...repos.values()].filter((repo) => repo.owner.login.toLowerCase() === login.toLowerCase()),
    remove: (repo: GitHubRepo) => repos.delete(`${repo.owner.login}/${repo.name}`.toLowerCase()),
  };
}

export type GitHubStore = ReturnType<typeof createGitHubStore>;

export function userJson(user: GitHubUser, apiBase: string) {
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId("U", user.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    url: `${apiBase}/users/${user.login}`,
    html_url: `https://github.com/${user.login}`,
    type: "User",
    site_admin: false,
  };
}

export function authenticatedUserJson(user: GitHubUser, apiBase: string, publicRepos: number) {
  return {
    ...userJson(user, apiBase),
    name: user.name,
    company: "@github",
    blog: "https://github.blog",
    location: "San Francisco",
    email: user.email,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: publicRepos,
    public_gists: 8,
    followers: 20,
    following: 0,
    created_at: "2008-01-14T04:33:35Z",
    updated_at: "2024-01-22T12:00:00Z",
  };
}

export function repoJson(repo: GitHubRepo, apiBase: string, viewer: GitHubUser | undefined) {
  const fullName = `${repo.owner.login}/${repo.name}`;
  const isOwner = viewer?.login.toLowerCase() === repo.owner.login.toLowerCase();
  return {
    id: repo.id,
    node_id: nodeId("R", repo.id),
    name: repo.name,
    full_name: fullName,
    private: repo.private,
    owner: userJson(repo.owner, apiBase),
    html_url: `https://github.com/${fullName}`,
    description: repo.description,
    fork: false,
    url: `${apiBase}/repos/${fullName}`,
    issues_url: `${apiBase}/repos/${fullName}/issues{/number}`,
    created_at: repo.createdAt,
    updated_at: repo.updatedAt,
    pushed_at: repo.pushedAt,
    homepage: null,
    size: 108,
    stargazers_count: 80,
    watchers_count: 80,
    language: null,
    has_issues: true,
    forks_count: 9,
    archived: false,
    disabled: false,
    open_issues_count: repo.issues.filter((issue) => issue.state === "open").length,
    visibility: repo.private ? "private" : "public",
    default_branch: "main",
    permissions: { admin: isOwner, maintain: isOwner, push: isOwner, triage: isOwner, pull: true },
  };
}

export function issueJson(repo: GitHubRepo, issue: GitHubIssue, apiBase: string) {
  const fullName = `${repo.owner.login}/${repo.name}`;
  return {
    id: issue.id,
    node_id: nodeId("I", issue.id),
    url: `${apiBase}/repos/${fullName}/issues/${issue.number}`,
    repository_url: `${apiBase}/repos/${fullName}`,
    comments_url: `${apiBase}/repos/${fullName}/issues/${issue.number}/comments`,
    html_url: `https://github.com/${fullName}/issues/${issue.number}`,
    number: issue.number,
    state: issue.state,
    state_reason: issue.state === "closed" ? "completed" : null,
    title: issue.title,
    body: issue.body,
    user: userJson(issue.user, apiBase),
    labels: issue.labels.map((label) => ({ ...label, node_id: nodeId("LA", label.id), description: null, default: false })),
    assignee: issue.assignees[0] ? userJson(issue.assignees[0], apiBase) : null,
    assignees: issue.assignees.map((assignee) => userJson(assignee, apiBase)),
    locked: false,
    comments: issue.comments.length,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    author_association: "OWNER",
  };
}

export function commentJson(repo: GitHubRepo, issue: GitHubIssue, comment: GitHubComment, apiBase: string) {
  const fullName = `${repo.owner.login}/${repo.name}`;
  return {
    id: comment.id,
    node_id: nodeId("IC", comment.id),
    url: `${apiBase}/repos/${fullName}/issues/comments/${comment.id}`,
    html_url: `https://github.com/${fullName}/issues/${issue.number}#issuecomment-${comment.id}`,
    issue_url: `${apiBase}/repos/${fullName}/issues/${issue.number}`,
    body: comment.body,
    user: userJson(comment.user, apiBase),
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    author_association: "OWNER",
  };
}

function nodeId(prefix: string, id: number): string {
  return `${prefix}_kgDO${Buffer.from(String(id)).toString("base64url")}`;
}
