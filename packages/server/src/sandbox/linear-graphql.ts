/**
 * Just enough GraphQL for the fake Linear: reads one operation's field tree (aliases, arguments with
 * variables and defaults, nested selections) so resolvers can answer by top-level field name and
 * the answer can be cut down to what was selected. No fragments, no type system.
 */

export type Selection = { name: string; alias: string; args: Record<string, unknown>; selections: Selection[] };
export type Operation = { type: "query" | "mutation"; selections: Selection[] };

export class GraphQLSyntaxError extends Error {}

type Token = { kind: "punct" | "name" | "number" | "string"; value: string };

const PUNCTUATORS = new Set(["!", "$", "(", ")", ":", "=", "@", "[", "]", "{", "}", "|", "&"]);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (/[\s,\uFEFF]/.test(char)) {
      i += 1;
    } else if (char === "#") {
      while (i < source.length && source[i] !== "\n") i += 1;
    } else if (source.startsWith("...", i)) {
      throw new GraphQLSyntaxError("Fragments are not supported by the fake Linear API.");
    } else if (PUNCTUATORS.has(char)) {
      tokens.push({ kind: "punct", value: char });
      i += 1;
    } else if (source.startsWith('"""', i)) {
      const end = source.indexOf('"""', i + 3);
      if (end < 0) throw new GraphQLSyntaxError("Syntax Error: Unterminated string.");
      tokens.push({ kind: "string", value: source.slice(i + 3, end) });
      i = end + 3;
    } else if (char === '"') {
      const match = /^"(?:[^"\\\n]|\\.)*"/.exec(source.slice(i));
      if (!match) throw new GraphQLSyntaxError("Syntax Error: Unterminated string.");
      tokens.push({ kind: "string", value: JSON.parse(match[0]) as string });
      i += match[0].length;
    } else {
      const match = /^(?:[_A-Za-z][_0-9A-Za-z]*|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(source.slice(i));
      if (!match) throw new GraphQLSyntaxError(`Syntax Error: Unexpected character: "${char}".`);
      tokens.push({ kind: /^[-\d]/.test(match[0]) ? "number" : "name", value: match[0] });
      i += match[0].length;
    }
  }
  return tokens;
}

export function parseOperation(source: string, variables: Record<string, unknown>, operationName?: string): Operation {
  const tokens = tokenize(source);
  let position = 0;
  const peek = () => tokens[position];
  const next = () => {
    const token = tokens[position++];
    if (!token) throw new GraphQLSyntaxError("Syntax Error: Unexpected <EOF>.");
    return token;
  };
  const expect = (value: string) => {
    const token = next();
    if (token.value !== value) throw new GraphQLSyntaxError(`Syntax Error: Expected "${value}", found "${token.value}".`);
  };
  const at = (value: string) => peek()?.kind === "punct" && peek()?.value === value;
  const values: Record<string, unknown> = { ...variables };

  function parseValue(): unknown {
    const token = next();
    if (token.kind === "punct" && token.value === "$") {
      const name = next().value;
      return values[name] ?? null;
    }
    if (token.kind === "number") return Number(token.value);
    if (token.kind === "string") return token.value;
    if (token.kind === "name") return token.value === "true" ? true : token.value === "false" ? false : token.value === "null" ? null : token.value;
    if (token.value === "[") {
      const list: unknown[] = [];
      while (!at("]")) list.push(parseValue());
      expect("]");
      return list;
    }
    if (token.value === "{") {
      const object: Record<string, unknown> = {};
      while (!at("}")) {
        const key = next().value;
        expect(":");
        object[key] = parseValue();
      }
      expect("}");
      return object;
    }
    throw new GraphQLSyntaxError(`Syntax Error: Unexpected "${token.value}".`);
  }

  function parseArguments(): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    if (!at("(")) return args;
    expect("(");
    while (!at(")")) {
      const name = next().value;
      expect(":");
      args[name] = parseValue();
    }
    expect(")");
    return args;
  }

  function skipDirectives(): void {
    while (at("@")) {
      next();
      next();
      parseArguments();
    }
  }

  function skipType(): void {
    if (at("[")) {
      next();
      skipType();
      expect("]");
    } else next();
    if (at("!")) next();
  }

  function parseVariableDefinitions(): void {
    if (!at("(")) return;
    expect("(");
    while (!at(")")) {
      expect("$");
      const name = next().value;
      expect(":");
      skipType();
      if (at("=")) {
        next();
        const fallback = parseValue();
        if (values[name] === undefined) values[name] = fallback;
      }
      skipDirectives();
    }
    expect(")");
  }

  function parseSelectionSet(): Selection[] {
    expect("{");
    const selections: Selection[] = [];
    while (!at("}")) {
      const first = next();
      if (first.kind !== "name") throw new GraphQLSyntaxError(`Syntax Error: Expected Name, found "${first.value}".`);
      let alias = first.value;
      let name = first.value;
      if (at(":")) {
        next();
        name = next().value;
      } else alias = name;
      const args = parseArguments();
      skipDirectives();
      selections.push({ name, alias, args, selections: at("{") ? parseSelectionSet() : [] });
    }
    expect("}");
    return selections;
  }

  const operations: (Operation & { name?: string })[] = [];
  while (peek()) {
    if (at("{")) {
      operations.push({ type: "query", selections: parseSelectionSet() });
      continue;
    }
    const keyword = next().value;
    if (keyword !== "query" && keyword !== "mutation") throw new GraphQLSyntaxError(`Syntax Error: Unexpected Name "${keyword}".`);
    const name = peek()?.kind === "name" ? next().value : undefined;
    parseVariableDefinitions();
    skipDirectives();
    operations.push({ type: keyword, name, selections: parseSelectionSet() });
  }
  const chosen = operationName ? operations.find((operation) => operation.name === operationName) : operations[0];
  if (!chosen) throw new GraphQLSyntaxError(operationName ? `Unknown operation named "${operationName}".` : "Syntax Error: Unexpected <EOF>.");
  return chosen;
}

export class GraphQLValidationError extends Error {}

/** Keeps only the selected fields (by alias), as a GraphQL server answers. */
export function project(value: unknown, selections: Selection[]): unknown {
  if (selections.length === 0 || value === null || value === undefined) return value ?? null;
  if (Array.isArray(value)) return value.map((item) => project(item, selections));
  const object = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const selection of selections) {
    if (!(selection.name in object)) {
      throw new GraphQLValidationError(`Cannot query field "${selection.name}" on type "${String(object.__typename ?? "Object")}".`);
    }
    result[selection.alias] = project(object[selection.name], selection.selections);
  }
  return result;
}
