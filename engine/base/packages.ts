// The packages only rendering, artwork checks, uploads, schedules, PostgreSQL, S3 or AI agents (MCP) need, each loaded on
// its first use instead of at start: loaded eagerly they held about 60 MB of an engine's resident
// memory before its first request, though an engine that only keeps and verifies addresses never
// calls them. Types come from `import type`, so nothing here loads a package until it is called.
import type * as PdfLib from 'pdf-lib';
import type Sharp from 'sharp';
import type Handlebars from 'handlebars';
import type PdfKit from 'pdfkit';
import type * as Puppeteer from 'puppeteer-core';
import type BwipJs from 'bwip-js';
import type PgBoss from 'pg-boss';
import type * as CsvParse from 'csv-parse';
import type * as NodeCron from 'node-cron';
import type * as McpServer from '@modelcontextprotocol/sdk/server/index.js';
import type * as McpTypes from '@modelcontextprotocol/sdk/types.js';
import type * as McpStreamableHttp from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as McpStdio from '@modelcontextprotocol/sdk/server/stdio.js';
import type * as AwsS3 from '@aws-sdk/client-s3';
import type * as AwsStorage from '@aws-sdk/lib-storage';
import { lazy } from './lazy';

/* eslint-disable @typescript-eslint/no-require-imports -- a require at first use is the point */
export const pdfLib = lazy(() => require('pdf-lib') as typeof PdfLib);
export const sharp = lazy(() => require('sharp') as typeof Sharp);
export const handlebars = lazy(() => require('handlebars') as typeof Handlebars);
export const pdfKit = lazy(() => require('pdfkit') as typeof PdfKit);
export const puppeteer = lazy(() => require('puppeteer-core') as typeof Puppeteer);
export const bwipJs = lazy(() => require('bwip-js') as typeof BwipJs);
export const pgBoss = lazy(() => require('pg-boss') as typeof PgBoss);
export const csvParse = lazy(() => require('csv-parse') as typeof CsvParse);
export const nodeCron = lazy(() => (require('node-cron') as typeof NodeCron).default);
// the MCP SDK (about 30 MB with its schemas): only when an agent connects, or `printpost mcp` runs
export const mcpServer = lazy(() => require('@modelcontextprotocol/sdk/server/index.js') as typeof McpServer);
export const mcpTypes = lazy(() => require('@modelcontextprotocol/sdk/types.js') as typeof McpTypes);
export const mcpStreamableHttp = lazy(
  () => require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof McpStreamableHttp,
);
export const mcpStdio = lazy(() => require('@modelcontextprotocol/sdk/server/stdio.js') as typeof McpStdio);
// the AWS SDK (about 25 MB loaded): only when ASSET_STORE names a bucket
export const awsS3 = lazy(() => require('@aws-sdk/client-s3') as typeof AwsS3);
export const awsStorage = lazy(() => require('@aws-sdk/lib-storage') as typeof AwsStorage);
/* eslint-enable @typescript-eslint/no-require-imports */
