// What the server tells a client about itself (initialize and server/discover), the same for both eras.
export const INSTRUCTIONS =
  'Utility tools for agents. Every call runs as a task on the server and returns when it finishes; ' +
  'results are in structuredContent (the same JSON is in the text block). Screenshots and PDFs come back ' +
  'as a resource_link you can read with resources/read (and a signed file_url valid 24 hours). Task-aware ' +
  'clients may run any tool as an MCP task and poll it. A failed call returns isError with the reason.';
