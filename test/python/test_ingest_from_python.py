"""Starts sluice ingestions from Python with the PyPI `temporalio` SDK: the published contract
(docs/contract/) is all this file knows of sluice. Run by scripts/python-client-test.sh, which
starts a worker on the production profile (S3 object store) on a task queue of its own."""

import asyncio
import os
import uuid

import boto3
from botocore.config import Config
from temporalio.client import Client, WorkflowExecutionStatus, WorkflowHandle
from temporalio.envconfig import ClientConfig

TASK_QUEUE = os.environ["SLUICE_TASK_QUEUE"]
BUCKET = os.environ["S3_BUCKET"]
# One user per test run: its quota and content dedupe start empty.
USER = f"py-{uuid.uuid4().hex[:12]}"
DATASET = "py-client"
RESULT_TIMEOUT_S = 180


def s3():
    return boto3.client(
        "s3",
        endpoint_url=os.environ["S3_ENDPOINT"],
        region_name=os.environ.get("S3_REGION", "us-east-1"),
        aws_access_key_id=os.environ["S3_ACCESS_KEY_ID"],
        aws_secret_access_key=os.environ["S3_SECRET_ACCESS_KEY"],
        config=Config(s3={"addressing_style": "path"}),
    )


def markdown(title: str) -> bytes:
    body = "\n\n".join(f"Paragraph {i} of {title}: sluice ingests this from a Python client." for i in range(40))
    return f"# {title}\n\n{body}\n".encode()


async def client() -> Client:
    # Temporal's env-config, as the worker reads it: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, the
    # TEMPORAL_TLS_* and TEMPORAL_API_KEY variables, or a temporal.toml profile (TEMPORAL_CONFIG_FILE,
    # TEMPORAL_PROFILE), the variables overriding the profile.
    return await Client.connect(**ClientConfig.load_client_connect_config())


async def start(c: Client, document_id: str, source: dict, file_name: str) -> WorkflowHandle:
    # The workflow id names the document; the input may leave documentId out.
    return await c.start_workflow(
        "ingestDocument",
        {"source": source, "userId": USER, "datasetId": DATASET, "fileName": file_name},
        id=f"ingest:{document_id}",
        task_queue=TASK_QUEUE,
    )


async def progress_until(handle: WorkflowHandle, done, timeout_s: float = 60) -> dict:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        progress = await handle.query("progress")
        if done(progress):
            return progress
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"progress never reached the expected state: {progress}")
        await asyncio.sleep(0.5)


def test_ingests_a_file_put_in_the_bucket_by_uri():
    async def run():
        key = f"inbox/{USER}/notes.md"
        s3().put_object(Bucket=BUCKET, Key=key, Body=markdown("notes"))
        document_id = str(uuid.uuid4())
        c = await client()
        handle = await start(c, document_id, {"uri": f"s3://{BUCKET}/{key}"}, "notes.md")
        progress = await progress_until(handle, lambda p: p["documentId"] == document_id)
        assert progress["status"] in ("PROCESSING", "SUCCESS")
        assert set(progress["stages"]) == {"CLEANING", "CHUNKING", "VECTORIZING", "PRETOKENIZE", "KEYWORD_INDEXING", "SPARSE_VECTORIZING"}
        result = await asyncio.wait_for(handle.result(), RESULT_TIMEOUT_S)
        assert result["status"] == "SUCCESS", result
        assert result["documentId"] == document_id
        assert result["chunkCount"] > 0
        assert result["duplicate"] is False
        final = await handle.query("progress")
        assert all(status == "SUCCESS" for status in final["stages"].values()), final

        # The same content again in the same dataset: answered with the first document, not stored twice.
        again = await start(c, str(uuid.uuid4()), {"objectKey": key}, "copy-of-notes.md")
        duplicate = await asyncio.wait_for(again.result(), RESULT_TIMEOUT_S)
        assert duplicate["duplicate"] is True
        assert duplicate["documentId"] == document_id
        assert duplicate["status"] == "SUCCESS"

    asyncio.run(run())


def test_a_missing_source_fails_then_a_retry_after_the_upload_succeeds():
    async def run():
        key = f"inbox/{USER}/late.md"
        document_id = str(uuid.uuid4())
        c = await client()
        handle = await start(c, document_id, {"objectKey": key}, "late.md")
        failed = await progress_until(handle, lambda p: p["waitingForRetry"])
        assert failed["status"] == "FAILED"
        assert failed["failureCode"] == "SOURCE_FILE_NOT_FOUND"

        s3().put_object(Bucket=BUCKET, Key=key, Body=markdown("late"))
        accepted = await handle.execute_update("requestRetry")
        assert accepted["retryOfTaskId"] == failed["taskId"]
        # result() follows the continue-as-new run the retry became.
        result = await asyncio.wait_for(handle.result(), RESULT_TIMEOUT_S)
        assert result["status"] == "SUCCESS", result
        assert result["documentId"] == document_id
        assert result["taskId"] == accepted["taskId"]
        assert result["chunkCount"] > 0

    asyncio.run(run())


def test_a_uri_in_another_bucket_is_refused_for_good():
    async def run():
        c = await client()
        handle = await start(c, str(uuid.uuid4()), {"uri": "s3://not-sluices-bucket/inbox/a.md"}, "a.md")
        result = await asyncio.wait_for(handle.result(), RESULT_TIMEOUT_S)
        assert result["status"] == "FAILED"
        assert result["failureCode"] == "INVALID_INGEST_INPUT"
        # Not left waiting for a retry that could not help: the run closed at once.
        assert (await handle.describe()).status == WorkflowExecutionStatus.COMPLETED

    asyncio.run(run())
