/**
 * Linear's GraphQL schema, rebuilt as SDL from the TypeScript types `@linear/sdk` generates from it
 * with GraphQL Code Generator (the package ships no .graphql file or introspection). The generator's
 * output is regular: an object type has `__typename`; an interface is a type that others intersect
 * (`Issue = Node & {…}`); an input type has neither; `<Type><Field>Args` holds a field's arguments;
 * `Maybe<T>`/`InputMaybe<T>` is a nullable T, `Array<T>` a list, `Scalars["X"]` the scalar X;
 * `declare enum` an enum; a union of type names a union. Descriptions are left out.
 */
import ts from "typescript";

const BUILT_IN_SCALARS = new Set(["ID", "String", "Boolean", "Int", "Float"]);
const WRAPPERS = new Set(["Maybe", "InputMaybe"]);

type Field = { name: string; type: string; args: string[] };
type Literal = { name: string; parts: string[]; fields: Field[]; hasTypename: boolean };

/** A GraphQL type expression (`[Issue!]!`) from a generated TypeScript type; undefined when it is not one. */
function graphQlType(node: ts.TypeNode, nullable: boolean): string | undefined {
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
    const name = node.typeName.text;
    const [argument] = node.typeArguments ?? [];
    if (WRAPPERS.has(name) && argument) return graphQlType(argument, true);
    if (name === "Array" && argument) {
      const item = graphQlType(argument, false);
      return item && `[${item}]${nullable ? "" : "!"}`;
    }
    return `${name}${nullable ? "" : "!"}`;
  }
  if (ts.isIndexedAccessTypeNode(node) && ts.isLiteralTypeNode(node.indexType) && ts.isStringLiteral(node.indexType.literal)) {
    return `${node.indexType.literal.text}${nullable ? "" : "!"}`;
  }
  return undefined;
}

function fieldsOf(literal: ts.TypeLiteralNode): { fields: Field[]; hasTypename: boolean } {
  const fields: Field[] = [];
  let hasTypename = false;
  for (const member of literal.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isIdentifier(member.name)) continue;
    if (member.name.text === "__typename") {
      hasTypename = true;
      continue;
    }
    const type = graphQlType(member.type, false);
    if (type) fields.push({ name: member.name.text, type, args: [] });
  }
  return { fields, hasTypename };
}

/** The SDL of the schema the generated types describe. */
export function sdkTypesToSdl(source: string): string {
  // The bundle's declaration file holds other modules too (webhooks); the schema's types are the generated documents' region.
  const region = /\/\/#region src\/_generated_documents\.d\.ts\n([\s\S]*?)\/\/#endregion/.exec(source);
  // In it the schema's types come first; the SDK's own operations' result types (…Fragment, …QueryVariables) follow.
  const types = region ? region[1]! : source;
  const operationsStart = types.search(/\ntype \w+(Fragment|QueryVariables|MutationVariables) = /);
  const file = ts.createSourceFile("sdk.d.ts", operationsStart > 0 ? types.slice(0, operationsStart) : types, ts.ScriptTarget.Latest, false);
  const literals = new Map<string, Literal>();
  const unions = new Map<string, string[]>();
  const enums = new Map<string, string[]>();
  const scalars: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isTypeAliasDeclaration(node) && !node.typeParameters) {
      const name = node.name.text;
      const type = node.type;
      if (name === "Scalars" && ts.isTypeLiteralNode(type)) {
        for (const member of type.members) if (member.name && ts.isIdentifier(member.name) && !BUILT_IN_SCALARS.has(member.name.text)) scalars.push(member.name.text);
      } else if (ts.isTypeLiteralNode(type)) {
        literals.set(name, { name, parts: [], ...fieldsOf(type) });
      } else if (ts.isIntersectionTypeNode(type)) {
        const literal = type.types.find(ts.isTypeLiteralNode);
        const parts = type.types.filter(ts.isTypeReferenceNode).map((part) => part.typeName.getText(file));
        if (literal) literals.set(name, { name, parts, ...fieldsOf(literal) });
      } else if (ts.isUnionTypeNode(type) && type.types.every((member) => ts.isTypeReferenceNode(member))) {
        unions.set(name, type.types.map((member) => (member as ts.TypeReferenceNode).typeName.getText(file)));
      }
    } else if (ts.isEnumDeclaration(node)) {
      enums.set(node.name.text, node.members.map((member) => member.name.getText(file)));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);

  const interfaces = new Set([...literals.values()].flatMap((literal) => literal.parts));
  const implemented = (name: string, seen = new Set<string>()): string[] => {
    for (const part of literals.get(name)?.parts ?? []) if (!seen.has(part)) (seen.add(part), implemented(part, seen));
    return [...seen];
  };
  /** Every field, the interfaces' first: an implementing type repeats them in SDL. */
  const allFields = (name: string): Field[] => {
    const byName = new Map<string, Field>();
    for (const part of implemented(name)) for (const field of literals.get(part)?.fields ?? []) byName.set(field.name, field);
    for (const field of literals.get(name)?.fields ?? []) byName.set(field.name, field);
    return [...byName.values()];
  };
  const argsOf = (owner: string, field: string) => {
    const args = literals.get(`${owner}${field[0]!.toUpperCase()}${field.slice(1)}Args`);
    return args && !args.hasTypename ? args.fields.map((arg) => `${arg.name}: ${arg.type}`) : [];
  };
  const isArgs = (name: string) => /Args$/.test(name) && !literals.get(name)!.hasTypename && !interfaces.has(name);

  const out: string[] = [];
  out.push(...scalars.sort().map((name) => `scalar ${name}`));
  for (const [name, values] of [...enums].sort()) out.push(`enum ${name} { ${values.join(" ")} }`);
  for (const [name, members] of [...unions].sort()) out.push(`union ${name} = ${members.join(" | ")}`);
  for (const literal of [...literals.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const { name } = literal;
    const fields = allFields(name);
    if (!fields.length) continue;
    const implementsClause = implemented(name).length ? ` implements ${implemented(name).join(" & ")}` : "";
    const body = (withArgs: boolean) =>
      fields.map((field) => {
        const args = withArgs ? argsOf(name, field.name) : [];
        return `  ${field.name}${args.length ? `(${args.join(", ")})` : ""}: ${field.type}`;
      });
    if (interfaces.has(name)) out.push(`interface ${name}${implementsClause} {\n${body(true).join("\n")}\n}`);
    else if (literal.hasTypename) out.push(`type ${name}${implementsClause} {\n${body(true).join("\n")}\n}`);
    else if (!isArgs(name)) out.push(`input ${name} {\n${body(false).join("\n")}\n}`);
  }
  return `${out.join("\n\n")}\n`;
}
