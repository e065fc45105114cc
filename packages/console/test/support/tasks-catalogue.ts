/**
 * A custom API-key provider and a small OpenAPI document for the console's catalogue scenario: two
 * operations that become tools (a GET, a POST) and a HEAD the import skips with its reason.
 */
export const TASKS_PROVIDER = {
  id: "tasks",
  display_name: "Tasks",
  api_base_url: "https://tasks.example.com/api",
  auth: { type: "api_key", in: "header", name: "X-Api-Key" },
};

export const TASKS_OPENAPI_YAML = `openapi: 3.0.3
info:
  title: Tasks
  version: 1.0.0
paths:
  /tasks:
    get:
      operationId: listTasks
      summary: List tasks
      parameters:
        - name: status
          in: query
          schema:
            type: string
            enum: [open, done]
      responses:
        "200":
          description: The tasks
    post:
      operationId: createTask
      summary: Create a task
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                title:
                  type: string
              required: [title]
      responses:
        "201":
          description: The new task
    head:
      operationId: countTasks
      responses:
        "200":
          description: The count in a header
`;
