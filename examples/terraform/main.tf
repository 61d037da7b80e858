# Orders and their audit trail, as a Terraform configuration. Run it with no eddy file:
# `npx eddy serve` in this folder (`--var stage=prod` for another stage). eddy reads the *.tf
# files itself: terraform is not needed to run it locally.
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
    archive = {
      source = "hashicorp/archive"
    }
  }
}

provider "aws" {
  region = "us-east-1"
}

variable "stage" {
  type    = string
  default = "dev"
}

resource "aws_dynamodb_table" "orders" {
  name             = "${var.stage}-orders"
  billing_mode     = "PAY_PER_REQUEST"
  hash_key         = "orderId"
  stream_enabled   = true
  stream_view_type = "NEW_AND_OLD_IMAGES"

  attribute {
    name = "orderId"
    type = "S"
  }
}

resource "aws_dynamodb_table" "audit_log" {
  name         = "${var.stage}-audit-log"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  range_key    = "at"

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "at"
    type = "S"
  }
}

resource "aws_sqs_queue" "audit_failures" {
  name = "${var.stage}-audit-failures"
}

# The handlers are zipped from src/ when deployed; eddy runs src/ as it is now.
data "archive_file" "handlers" {
  type        = "zip"
  source_dir  = "${path.module}/src"
  output_path = "${path.module}/build/handlers.zip"
}

resource "aws_iam_role" "lambda" {
  name = "${var.stage}-orders-audit"
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { Service = "lambda.amazonaws.com" } }]
  })
}

locals {
  environment = {
    AUDIT_TABLE = aws_dynamodb_table.audit_log.name
  }
}

# Writes an audit entry for every status change of an order.
resource "aws_lambda_function" "audit_orders" {
  function_name    = "${var.stage}-audit-orders"
  role             = aws_iam_role.lambda.arn
  filename         = data.archive_file.handlers.output_path
  source_code_hash = data.archive_file.handlers.output_base64sha256
  handler          = "audit.handler"
  runtime          = "nodejs22.x"
  timeout          = 10

  environment {
    variables = local.environment
  }
}

resource "aws_lambda_event_source_mapping" "status_changes" {
  event_source_arn                   = aws_dynamodb_table.orders.stream_arn
  function_name                      = aws_lambda_function.audit_orders.arn
  starting_position                  = "TRIM_HORIZON"
  batch_size                         = 25
  maximum_batching_window_in_seconds = 1
  maximum_retry_attempts             = 2
  function_response_types            = ["ReportBatchItemFailures"]

  filter_criteria {
    filter {
      pattern = jsonencode({ eventName = ["INSERT", "MODIFY"] })
    }
  }

  destination_config {
    on_failure {
      destination_arn = aws_sqs_queue.audit_failures.arn
    }
  }
}

# Counts the audit entries once an hour.
resource "aws_lambda_function" "hourly_report" {
  function_name = "${var.stage}-hourly-report"
  role          = aws_iam_role.lambda.arn
  filename      = data.archive_file.handlers.output_path
  handler       = "report.handler"
  runtime       = "nodejs22.x"

  environment {
    variables = local.environment
  }
}

resource "aws_cloudwatch_event_rule" "hourly" {
  name                = "${var.stage}-hourly-report"
  schedule_expression = "rate(1 hour)"
}

resource "aws_cloudwatch_event_target" "hourly_report" {
  rule = aws_cloudwatch_event_rule.hourly.name
  arn  = aws_lambda_function.hourly_report.arn
}
